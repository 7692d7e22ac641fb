import { tablesLimits } from 'botshelf/api'
import { scalarKinds } from './column-kinds.js'
import { invalidQuery, TablesStoreError } from './errors.js'
import type { TableColumn, TableColumns } from './table-columns.js'

/**
 * Refuses a write of fewer than 1 or more than 1000 rows (imports are not bounded).
 *
 * @example
 * ```ts
 * checkRowBatch(rows.length)
 * ```
 */
export function checkRowBatch(count: number): void {
  if (count < 1 || count > tablesLimits.rowsPerWrite) {
    throw new TablesStoreError('InvalidPayload', 'INVALID_REQUEST', `rows: expected 1 to ${tablesLimits.rowsPerWrite} rows, received ${count}`)
  }
}

/**
 * Refuses a `deleteRows` that does not give exactly one of `ids`, `filter` or `deleteAllRows: true`.
 *
 * @example
 * ```ts
 * checkDeleteMode({ ids: [1, 2] }) // ok
 * ```
 */
export function checkDeleteMode(input: { ids?: unknown; filter?: unknown; deleteAllRows?: boolean }): void {
  const given = [input.ids !== undefined, input.filter !== undefined, input.deleteAllRows === true].filter(Boolean).length
  if (given !== 1) throw new TablesStoreError('InvalidPayload', 'INVALID_REQUEST', 'Give exactly one of ids, filter or deleteAllRows: true')
}

/**
 * `ResourceNotFound` for `getRow`.
 *
 * @example
 * ```ts
 * throw rowNotFound(9, 'ordersTable') // Row 9 not found in table "ordersTable"
 * ```
 */
export function rowNotFound(id: number, tableName: string): TablesStoreError {
  return new TablesStoreError('ResourceNotFound', 'ROW_NOT_FOUND', `Row ${id} not found in table "${tableName}"`)
}

/**
 * `ResourceNotFound` for a write naming row ids that do not exist (`path` is `rows` or `rows.<n>.id`).
 *
 * @example
 * ```ts
 * throw missingRows('rows', [7, 9], 'ordersTable') // rows: no row with id 7, 9 in table "ordersTable"; no row was written
 * ```
 */
export function missingRows(path: string, ids: readonly unknown[], tableName: string): TablesStoreError {
  const list = [...new Set(ids)].slice(0, 20).map(String).join(', ')
  return new TablesStoreError('ResourceNotFound', 'ROW_NOT_FOUND', `${path}: no row with id ${list} in table "${tableName}"; no row was written`)
}

/**
 * `AlreadyExists` for a row whose key column value another row has (`index` counts from the first row written).
 *
 * @example
 * ```ts
 * throw keyConflict('email', 3, 'a@b.c')
 * ```
 */
export function keyConflict(keyColumn: string, index: number, value: unknown): TablesStoreError {
  return new TablesStoreError(
    'AlreadyExists',
    'KEY_CONFLICT',
    `rows.${index}.${keyColumn}: another row already has ${JSON.stringify(value)} in the key column "${keyColumn}"; no row was written`,
  )
}

/**
 * `LimitExceeded` once a table has used every row id (ids are never reused).
 *
 * @example
 * ```ts
 * if (id > tablesLimits.maxRowId) throw rowIdsExhausted(index)
 * ```
 */
export function rowIdsExhausted(index: number): TablesStoreError {
  return new TablesStoreError('LimitExceeded', 'LIMIT_EXCEEDED', `rows.${index}: the table has used every row id up to ${tablesLimits.maxRowId}`)
}

/**
 * The column `upsertRows` matches rows on: `undefined` for `id`, else a scalar user column.
 *
 * @example
 * ```ts
 * const key = upsertKey(columns, 'email', 'usersTable')
 * ```
 */
export function upsertKey(table: Pick<TableColumns, 'byName'>, keyColumn: string, tableName: string): TableColumn | undefined {
  if (keyColumn === 'id') return undefined
  const key = table.byName.get(keyColumn)
  if (!key) throw invalidQuery(`keyColumn: "${keyColumn}" is not a column of table "${tableName}"`)
  if (!scalarKinds.has(key.kind)) throw invalidQuery(`keyColumn: "${keyColumn}" is a ${key.kind} column; upsert needs a scalar key column`)
  return key
}
