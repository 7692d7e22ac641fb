import { datasetPart, type DatasetPartName, type DatasetPartSpec, type DatasetRecord } from '../../dataset/dataset-parts.js'
import type { DatasetPort } from '../../dataset/dataset-port.js'
import type { PgSql } from '../pg-types.js'
import { ensureHnswIndex } from '../search/hnsw-index.js'
import { float32FromBytes, pgvectorLiteral } from '../search/vector-literals.js'
import type { VectorMode } from '../search/vector-mode.js'

/** Records per INSERT statement (well under PostgreSQL's 65,535 parameters for the widest part). */
const INSERT_BATCH = 500

/**
 * The dataset port on PostgreSQL, bound to the pool or to one transaction: the shared parts read in keyset pages
 * (`COLLATE "C"` keys: the order SQLite gives) and written back as they are. Passage vectors are little-endian
 * float32 bytes in a record, whether the index keeps them as `bytea` (exact) or pgvector's `vector` (an HNSW index
 * per length is made when first needed, as the search port does).
 *
 * @example
 * ```ts
 * const dataset = new PgDatasetPort(sql, 'exact')
 * await dataset.readPage('bots', { limit: 500 })
 * ```
 */
export class PgDatasetPort implements DatasetPort {
  constructor(
    private readonly sql: PgSql,
    private readonly vectors: VectorMode,
  ) {}

  async readPage(part: DatasetPartName, query: { after?: ReadonlyArray<string | number>; limit: number }): Promise<{ records: DatasetRecord[] }> {
    const spec = datasetPart(part)
    const keys = spec.key.map(quote).join(', ')
    const params: unknown[] = [...(query.after ?? [])]
    const after = query.after ? `WHERE (${keys}) > (${spec.key.map((_, i) => `$${i + 1}`).join(', ')})` : ''
    params.push(query.limit)
    const columns = spec.columns.map((column) => (column === 'embedding' && this.vectors === 'pgvector' ? 'embedding::text AS embedding' : quote(column)))
    const rows = (await this.sql.unsafe(
      `SELECT ${columns.join(', ')} FROM ${quote(spec.table)} ${after} ORDER BY ${keys} LIMIT $${params.length}`,
      params as never[],
    )) as unknown as Array<Record<string, unknown>>
    return { records: rows.map((row) => toRecord(spec, row)) }
  }

  async count(part: DatasetPartName): Promise<number> {
    const [row] = await this.sql.unsafe(`SELECT count(*)::int AS n FROM ${quote(datasetPart(part).table)}`)
    return Number(row?.['n'] ?? 0)
  }

  async writeRecords(part: DatasetPartName, records: ReadonlyArray<DatasetRecord>): Promise<void> {
    const spec = datasetPart(part)
    const passages = spec.table === 'search_passages'
    const columns = [...spec.columns.filter((column) => !spec.generated?.includes(column)), ...(passages ? ['vector_dimensions'] : [])]
    if (passages && this.vectors === 'pgvector') {
      const lengths = new Set(records.flatMap((record) => (record['embedding'] ? [Buffer.from(String(record['embedding']), 'base64').length / 4] : [])))
      for (const n of lengths) await ensureHnswIndex(this.sql, n)
    }
    for (let start = 0; start < records.length; start += INSERT_BATCH) {
      const batch = records.slice(start, start + INSERT_BATCH)
      const params: unknown[] = []
      const rows = batch.map((record) => {
        const placeholders = columns.map((column) => {
          params.push(this.columnValue(spec, column, record))
          return column === 'embedding' && this.vectors === 'pgvector' ? `$${params.length}::vector` : `$${params.length}`
        })
        return `(${placeholders.join(', ')})`
      })
      await this.sql.unsafe(`INSERT INTO ${quote(spec.table)} (${columns.map(quote).join(', ')}) VALUES ${rows.join(', ')}`, params as never[])
    }
  }

  async isEmpty(): Promise<boolean> {
    const tables = ['workspaces', 'bots', 'tokens', 'files', 'knowledge_bases', 'tables_catalog', 'queue_jobs']
    const [row] = await this.sql.unsafe(`SELECT ${tables.map((table) => `NOT EXISTS (SELECT 1 FROM ${quote(table)})`).join(' AND ')} AS empty`)
    return row?.['empty'] === true
  }

  private columnValue(spec: DatasetPartSpec, column: string, record: DatasetRecord): unknown {
    const value = record[column] ?? null
    if (column === 'vector_dimensions') return record['embedding'] ? Buffer.from(String(record['embedding']), 'base64').length / 4 : null
    if (value === null) return null
    if (column === 'embedding' && this.vectors === 'pgvector') return pgvectorLiteral(float32FromBytes(Buffer.from(String(value), 'base64')))
    if (spec.bytes?.includes(column)) return Buffer.from(String(value), 'base64')
    return value
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
    else if (column === 'embedding' && typeof value === 'string') record[column] = vectorTextToBase64(value)
    else if (spec.bytes?.includes(column)) record[column] = Buffer.from(value as Uint8Array).toString('base64')
    else if (typeof value === 'bigint') record[column] = Number(value)
    else record[column] = value as string | number | boolean
  }
  return record
}

/** pgvector's text form `[0.1,0.2]` as little-endian float32 bytes in base64. */
function vectorTextToBase64(text: string): string {
  const values = text.replace(/^\[|\]$/g, '').split(',').filter((part) => part !== '').map(Number)
  const bytes = Buffer.alloc(values.length * 4)
  values.forEach((value, index) => bytes.writeFloatLE(value, index * 4))
  return bytes.toString('base64')
}
