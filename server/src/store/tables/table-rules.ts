import type { TableJsonSchema } from 'botshelf/api'
import { tableNamePattern } from 'botshelf/api'
import { columnKind, scalarKinds } from './column-kinds.js'
import { invalidSchema, TablesStoreError } from './errors.js'
import { checkColumnName } from './schema-input.js'
import { buildTableSchema, orderedColumns, schemaColumn } from './table-schema.js'
import type { TableRecord, UpdateTableInput } from './types.js'

/**
 * `ResourceNotFound` for a table named by id or name.
 *
 * @example
 * ```ts
 * throw tableNotFound('ordersTable') // Table "ordersTable" not found
 * ```
 */
export function tableNotFound(ref: string): TablesStoreError {
  return new TablesStoreError('ResourceNotFound', 'TABLE_NOT_FOUND', `Table "${ref}" not found`)
}

/**
 * Refuses a table name that is not 1 to 45 letters, digits or `_` followed by `Table` (docs/decisions/0401-table-and-column-names.md).
 *
 * @example
 * ```ts
 * checkTableName('ordersTable') // ok
 * checkTableName('orders') // throws InvalidPayload
 * ```
 */
export function checkTableName(name: string): void {
  if (!tableNamePattern.test(name)) {
    throw new TablesStoreError(
      'InvalidPayload',
      'INVALID_REQUEST',
      `name: expected a name ending in "Table", like peopleTable (1 to 45 letters, digits or "_" before "Table", any case), received ${JSON.stringify(name)}`,
    )
  }
}

/**
 * `AlreadyExists` for a table name a bot already uses.
 *
 * @example
 * ```ts
 * if (taken) throw tableNameTaken('ordersTable')
 * ```
 */
export function tableNameTaken(name: string): TablesStoreError {
  return new TablesStoreError('AlreadyExists', 'TABLE_EXISTS', `A table named "${name}" already exists`)
}

/**
 * `ResourceLockedConflict` for a structural change of a frozen table (docs/decisions/0404-update-table-rules.md).
 *
 * @example
 * ```ts
 * if (record.frozen) throw frozenError(record.name)
 * ```
 */
export function frozenError(name: string): TablesStoreError {
  return new TablesStoreError(
    'ResourceLockedConflict',
    'TABLE_FROZEN',
    `Table "${name}" is frozen: its name, schema and key column cannot change (duplicate it to make changes)`,
  )
}

/**
 * A `keyColumn` input: `undefined` leaves it, `null` and `""` remove it.
 *
 * @example
 * ```ts
 * normalizeKeyColumn('') // null
 * ```
 */
export function normalizeKeyColumn(value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined
  return value === null || value === '' ? null : value
}

/**
 * Refuses a key column that is not a scalar column of the schema (`null` means no key column).
 *
 * @example
 * ```ts
 * checkKeyColumn(schema, 'email') // ok for a string column
 * ```
 */
export function checkKeyColumn(schema: TableJsonSchema, keyColumn: string | null): void {
  if (keyColumn === null) return
  const column = schemaColumn(schema, keyColumn)
  if (!column) throw invalidSchema(`keyColumn: "${keyColumn}" is not a column of the table`)
  const kind = columnKind(column)
  if (!scalarKinds.has(kind)) throw invalidSchema(`keyColumn: "${keyColumn}" is a ${kind} column; a key column must be a string, number, boolean or date column`)
}

/**
 * Checks an `updateTable` input against the table: a frozen table refuses structural changes (name, schema, key
 * column, unfreezing), and `factor` may only grow (docs/decisions/0404-update-table-rules.md).
 *
 * @example
 * ```ts
 * checkTableUpdate(record, { factor: 2 })
 * ```
 */
export function checkTableUpdate(record: TableRecord, input: UpdateTableInput): void {
  const keyColumn = normalizeKeyColumn(input.keyColumn)
  if (record.frozen) {
    const structural =
      (input.name !== undefined && input.name !== record.name) ||
      input.schema !== undefined ||
      (keyColumn !== undefined && keyColumn !== record.keyColumn) ||
      input.frozen === false
    if (structural) throw frozenError(record.name)
  }
  if (input.factor !== undefined && input.factor < record.factor) {
    throw new TablesStoreError('InvalidPayload', 'INVALID_REQUEST', `factor: may only increase (current ${record.factor}), received ${input.factor}`)
  }
}

/**
 * The default names of a copy of `source`, in the order to try: `<base>CopyTable`, `<base>Copy2Table`, ...
 * (only valid table names).
 *
 * @example
 * ```ts
 * copyNameCandidates('ordersTable').slice(0, 2) // ['ordersCopyTable', 'ordersCopy2Table']
 * ```
 */
export function copyNameCandidates(source: string): string[] {
  const base = source.replace(/table$/i, '')
  const names: string[] = []
  for (let n = 1; n < 1000; n++) {
    const candidate = `${base}Copy${n === 1 ? '' : n}Table`
    if (!tableNamePattern.test(candidate)) break
    names.push(candidate)
  }
  return names
}

/**
 * `InvalidPayload` when every default copy name is taken.
 *
 * @example
 * ```ts
 * throw noFreeCopyName()
 * ```
 */
export function noFreeCopyName(): TablesStoreError {
  return new TablesStoreError('InvalidPayload', 'INVALID_REQUEST', 'tableName: no free default name for the copy; give tableName')
}

/**
 * Refuses a copy with rows whose factor is below the source's (its rows might not fit).
 *
 * @example
 * ```ts
 * checkCopyFactor(source.factor, options.factor ?? source.factor, options.schemaOnly === true)
 * ```
 */
export function checkCopyFactor(sourceFactor: number, factor: number, schemaOnly: boolean): void {
  if (!schemaOnly && factor < sourceFactor) {
    throw new TablesStoreError('InvalidPayload', 'INVALID_REQUEST', `factor: a copy with rows needs a factor of at least ${sourceFactor} (the source's), received ${factor}`)
  }
}

/**
 * The record after renaming a column (schema, required, physical map and key column follow; the stored column
 * keeps its physical name), or `null` when `newName` is the current name. Refuses a frozen table, an unknown
 * column, an invalid new name and a name in use.
 *
 * @example
 * ```ts
 * const renamed = renamedColumnRecord(record, 'cust', 'customer')
 * if (renamed) save({ ...renamed, updatedAt: now })
 * ```
 */
export function renamedColumnRecord(record: TableRecord, name: string, newName: string): TableRecord | null {
  if (record.frozen) throw frozenError(record.name)
  if (!schemaColumn(record.schema, name)) throw new TablesStoreError('ResourceNotFound', 'INVALID_REQUEST', `name: column "${name}" not found in table "${record.name}"`)
  if (name === newName) return null
  checkColumnName(newName, 'newName')
  if (schemaColumn(record.schema, newName)) throw new TablesStoreError('AlreadyExists', 'INVALID_REQUEST', `newName: column "${newName}" already exists`)
  const rename = (n: string) => (n === name ? newName : n)
  const columns = orderedColumns(record.schema).map((c) => ({ ...c, name: rename(c.name) }))
  return {
    ...record,
    schema: buildTableSchema(columns, (record.schema.required ?? []).map(rename), record.schema.$schema),
    physicalMap: Object.fromEntries(Object.entries(record.physicalMap).map(([k, v]) => [rename(k), v])),
    keyColumn: record.keyColumn === null ? null : rename(record.keyColumn),
  }
}

/**
 * `AlreadyExists` for a key column whose existing values repeat.
 *
 * @example
 * ```ts
 * throw keyColumnNotUnique('email')
 * ```
 */
export function keyColumnNotUnique(keyColumn: string): TablesStoreError {
  return new TablesStoreError('AlreadyExists', 'KEY_CONFLICT', `keyColumn: column "${keyColumn}" has duplicate values; a key column must be unique`)
}
