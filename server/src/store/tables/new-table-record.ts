import { newTableId } from './ids.js'
import { checkCopyFactor, checkKeyColumn, normalizeKeyColumn } from './table-rules.js'
import { newTableSchema } from './table-schema.js'
import type { CreateTableInput, TableRecord } from './types.js'

/** The clock of a tables context: the time a record is stamped with, and its stored (ISO) form. */
export interface RecordClock {
  now(): Date
  timestamp(): string
}

/**
 * The engine table that holds a user table's rows: `ut_` + the lowercase ULID of its id (the same on every engine).
 *
 * @example
 * ```ts
 * physicalTableName('table_01K86HD0D5T3HFCGBEKQJFNKAD') // 'ut_01k86hd0d5t3hfcgbekqjfnkad'
 * ```
 */
export function physicalTableName(tableId: string): string {
  return `ut_${tableId.slice('table_'.length).toLowerCase()}`
}

/**
 * The catalog record of a new table built from any of the three schema forms: columns `c1…cN` in schema order,
 * the key column checked. One definition for both engines, so a new table is the same whichever creates it (the
 * caller checks the name is free first).
 *
 * @example
 * ```ts
 * const record = newTableRecord(context, 'bot_1', { name: 'ordersTable', schema: { total: 0 } }) // { physicalMap: { total: 'c1' }, nextColumn: 2, … }
 * ```
 */
export function newTableRecord(clock: RecordClock, botId: string, input: CreateTableInput): TableRecord {
  const schema = newTableSchema(input.schema)
  const keyColumn = normalizeKeyColumn(input.keyColumn) ?? null
  checkKeyColumn(schema, keyColumn)
  const now = clock.timestamp()
  const id = newTableId(clock.now())
  const names = Object.keys(schema.properties)
  return {
    id,
    botId,
    name: input.name,
    physical: physicalTableName(id),
    schema,
    physicalMap: Object.fromEntries(names.map((name, i) => [name, `c${i + 1}`])),
    nextColumn: names.length + 1,
    factor: input.factor ?? 1,
    frozen: input.frozen ?? false,
    keyColumn,
    tags: input.tags ?? {},
    isComputeEnabled: input.isComputeEnabled ?? false,
    createdAt: now,
    updatedAt: now,
  }
}

/**
 * The catalog record of a copy of `source` named `name`: schema, key column and tags kept, a new id, never frozen,
 * the factor checked against the source's (unless only the schema is copied).
 *
 * @example
 * ```ts
 * const copy = copiedTableRecord(context, source, { name: 'ordersCopy1Table' }) // { frozen: false, … }
 * ```
 */
export function copiedTableRecord(clock: RecordClock, source: TableRecord, options: { name: string; factor?: number; schemaOnly?: boolean }): TableRecord {
  const factor = options.factor ?? source.factor
  checkCopyFactor(source.factor, factor, options.schemaOnly === true)
  const now = clock.timestamp()
  const id = newTableId(clock.now())
  return { ...source, id, name: options.name, physical: physicalTableName(id), factor, frozen: false, createdAt: now, updatedAt: now }
}
