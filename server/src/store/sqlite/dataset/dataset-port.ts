import { datasetPart, type DatasetPartName, type DatasetPartSpec, type DatasetRecord } from '../../dataset/dataset-parts.js'
import type { Sqlite } from '../connect.js'

/**
 * The dataset port on SQLite, synchronous (the backend wraps it): the shared parts read in keyset pages and
 * written back as they are. Booleans are SQLite integers, bytes BLOBs.
 *
 * @example
 * ```ts
 * const store = new SqliteDatasetStore(db)
 * store.readPage('bots', { limit: 500 })
 * ```
 */
export class SqliteDatasetStore {
  constructor(private readonly db: Sqlite) {}

  /** One page of a part in key order (see `DatasetPort.readPage`). */
  readPage(part: DatasetPartName, query: { after?: ReadonlyArray<string | number>; limit: number }): { records: DatasetRecord[] } {
    const spec = datasetPart(part)
    const keys = spec.key.map(quote).join(', ')
    const after = query.after ? `WHERE (${keys}) > (${spec.key.map(() => '?').join(', ')})` : ''
    const rows = this.db
      .prepare(`SELECT ${spec.columns.map(quote).join(', ')} FROM ${quote(spec.table)} ${after} ORDER BY ${keys} LIMIT ?`)
      .all(...(query.after ?? []), query.limit) as Array<Record<string, unknown>>
    return { records: rows.map((row) => toRecord(spec, row)) }
  }

  /** How many records a part holds. */
  count(part: DatasetPartName): number {
    return this.db.prepare(`SELECT count(*) FROM ${quote(datasetPart(part).table)}`).pluck().get() as number
  }

  /** Inserts records as they are (see `DatasetPort.writeRecords`). */
  writeRecords(part: DatasetPartName, records: ReadonlyArray<DatasetRecord>): void {
    const spec = datasetPart(part)
    const columns = spec.columns.filter((column) => !spec.generated?.includes(column))
    const insert = this.db.prepare(`INSERT INTO ${quote(spec.table)} (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`)
    this.db.transaction(() => {
      for (const record of records) insert.run(...columns.map((column) => fromRecord(spec, column, record[column])))
    })()
  }

  /** True when no workspace, bot, token, file, table or job exists. */
  isEmpty(): boolean {
    const tables = ['workspaces', 'bots', 'tokens', 'files', 'knowledge_bases', 'tables_catalog', 'queue_jobs']
    return tables.every((table) => this.db.prepare(`SELECT 1 FROM ${quote(table)} LIMIT 1`).get() === undefined)
  }
}

function quote(name: string): string {
  return `"${name}"`
}

function toRecord(spec: DatasetPartSpec, row: Record<string, unknown>): DatasetRecord {
  const record: DatasetRecord = {}
  for (const column of spec.columns) {
    const value = row[column]
    if (value === null || value === undefined) record[column] = null
    else if (spec.booleans?.includes(column)) record[column] = value === 1
    else if (spec.bytes?.includes(column)) record[column] = Buffer.from(value as Uint8Array).toString('base64')
    else record[column] = value as string | number
  }
  return record
}

function fromRecord(spec: DatasetPartSpec, column: string, value: DatasetRecord[string] | undefined): unknown {
  if (value === null || value === undefined) return null
  if (spec.booleans?.includes(column)) return value === true ? 1 : 0
  if (spec.bytes?.includes(column)) return Buffer.from(String(value), 'base64')
  return value
}
