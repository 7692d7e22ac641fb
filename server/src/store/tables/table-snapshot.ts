import type { Row } from 'botshelf/api'
import { tablesLimits } from 'botshelf/api'
import { isIsoDateTime } from './date-time.js'
import { invalidSchema, TablesStoreError } from './errors.js'
import { isTableId } from './ids.js'
import { checkKeyColumn, checkTableName, normalizeKeyColumn } from './table-rules.js'
import { newTableSchema } from './table-schema.js'
import type { TableRecord } from './types.js'

/**
 * A table as a dataset archive carries it (`botshelf export`): everything of its catalog record that no engine
 * decides. The physical names (`physical`, `physicalMap`, `nextColumn`) are the target engine's business and are
 * made again on restore.
 *
 * @example
 * ```ts
 * const snapshot: TableSnapshot = tableSnapshotOf(await backend.tables.loadTable(botId, 'ordersTable'))
 * ```
 */
export type TableSnapshot = Omit<TableRecord, 'physical' | 'physicalMap' | 'nextColumn'>

/**
 * A stored row as an archive carries it: its id, its two times and its column values, as `findRows` returns them.
 *
 * @example
 * ```ts
 * const row: RowSnapshot = { id: 7, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-02T00:00:00.000Z', total: 12 }
 * ```
 */
export interface RowSnapshot {
  id: number
  createdAt: string
  updatedAt: string
  [column: string]: unknown
}

/**
 * The snapshot of a catalog record (its engine-specific names left out).
 *
 * @example
 * ```ts
 * const snapshot = tableSnapshotOf(record)
 * ```
 */
export function tableSnapshotOf(record: TableRecord): TableSnapshot {
  const { physical: _physical, physicalMap: _map, nextColumn: _next, ...snapshot } = record
  return snapshot
}

/**
 * The catalog record a restored table gets on any engine: the snapshot's id, name, schema, settings and times,
 * checked as a new table's would be, with columns `c1..cN` in schema order and the engine's `physical` name.
 * Throws `TablesStoreError` on a bad id, name, schema or key column.
 *
 * @example
 * ```ts
 * const record = recordFromSnapshot(snapshot, physicalTableName(snapshot.id))
 * ```
 */
export function recordFromSnapshot(snapshot: TableSnapshot, physical: string): TableRecord {
  if (!isTableId(snapshot.id)) throw invalidSchema(`id: expected a table id like table_<ULID>, received ${JSON.stringify(snapshot.id)}`)
  checkTableName(snapshot.name)
  const schema = newTableSchema(snapshot.schema as unknown as Record<string, unknown>)
  const keyColumn = normalizeKeyColumn(snapshot.keyColumn) ?? null
  checkKeyColumn(schema, keyColumn)
  const names = Object.keys(schema.properties)
  return {
    ...snapshot,
    schema,
    keyColumn,
    physical,
    physicalMap: Object.fromEntries(names.map((name, i) => [name, `c${i + 1}`])),
    nextColumn: names.length + 1,
  }
}

/**
 * The column values of a stored row (what `restoreRows` validates), without its id, times and computed state.
 *
 * @example
 * ```ts
 * rowValues({ id: 1, createdAt, updatedAt, computed: {}, total: 12 }) // { total: 12 }
 * ```
 */
export function rowValues(row: RowSnapshot | Row): Record<string, unknown> {
  const { id: _id, createdAt: _c, updatedAt: _u, computed: _computed, stale: _stale, similarity: _similarity, ...values } = row as Record<string, unknown>
  return values
}

/**
 * Checks a row snapshot's id (an integer from 1 to the largest row id) and times (ISO 8601); throws
 * `TablesStoreError` `INVALID_ROW` naming `rows.<index>` otherwise.
 *
 * @example
 * ```ts
 * checkRowSnapshot({ id: 0, createdAt: 'x', updatedAt: 'x' }, 3) // throws: rows.3.id: expected an integer from 1 to 2147483647, received 0
 * ```
 */
export function checkRowSnapshot(row: RowSnapshot, index: number): void {
  if (!Number.isInteger(row.id) || row.id < 1 || row.id > tablesLimits.maxRowId) {
    throw new TablesStoreError('InvalidDataFormat', 'INVALID_ROW', `rows.${index}.id: expected an integer from 1 to ${tablesLimits.maxRowId}, received ${JSON.stringify(row.id)}`)
  }
  for (const field of ['createdAt', 'updatedAt'] as const) {
    if (!isIsoDateTime(row[field])) {
      throw new TablesStoreError('InvalidDataFormat', 'INVALID_ROW', `rows.${index}.${field}: expected an ISO 8601 date-time, received ${JSON.stringify(row[field])}`)
    }
  }
}
