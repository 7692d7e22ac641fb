import { schemaRegexBudget } from '../../tables/regex-budget.js'
import { convertColumnValue, planSchemaChange, unconvertibleValues, valuesMissing, valuesNotMatching, valuesOutsideEnum } from '../../tables/schema-change.js'
import { tableColumn, type TableColumn } from '../../tables/table-columns.js'
import type { TableRecord } from '../../tables/types.js'
import { runtimeOf } from './catalog-records.js'
import { decodeValue, encodeValue, quoteIdent, sqlTypeOf } from './columns.js'
import type { TablesContext } from './context.js'
import { dropRowVectorTrigger, syncRowVectors } from './row-vectors.js'
import { columnIndexName, createColumnIndex, createKeyIndex, createSearch, dropKeyIndex, dropSearch } from './ddl.js'
import { REGEXP_FUNCTION } from './regex-function.js'
import type { TableRuntime } from './runtime.js'

/** Moves a column's values to a new SQLite column of the new kind, converting each; returns the new column's name. */
function convertColumn(context: TablesContext, record: TableRecord, old: TableColumn, kind: TableColumn['kind']): string {
  const { db } = context
  const table = quoteIdent(record.physical)
  const physical = `c${record.nextColumn++}`
  const values = db.prepare(`SELECT id, ${quoteIdent(old.physical)} AS v FROM ${table} WHERE ${quoteIdent(old.physical)} IS NOT NULL`).all() as Array<{ id: number; v: unknown }>
  const converted: Array<[number, string | number | null]> = []
  let failures = 0
  let example: unknown
  for (const { id, v } of values) {
    const result = convertColumnValue(old.kind, kind, decodeValue(old.kind, v))
    if (result.ok) converted.push([id, encodeValue(kind, result.value)])
    else {
      failures++
      example ??= decodeValue(old.kind, v)
    }
  }
  if (failures > 0) throw unconvertibleValues(old.name, old.kind, kind, failures, example)
  db.exec(`ALTER TABLE ${table} ADD COLUMN ${quoteIdent(physical)} ${sqlTypeOf(kind)}`)
  const update = db.prepare(`UPDATE ${table} SET ${quoteIdent(physical)} = ? WHERE id = ?`)
  for (const [id, value] of converted) update.run(value, id)
  if (record.keyColumn === old.name) dropKeyIndex(db, record.physical)
  db.exec(`DROP INDEX IF EXISTS ${quoteIdent(columnIndexName(record.physical, old.physical))}`)
  db.exec(`ALTER TABLE ${table} DROP COLUMN ${quoteIdent(old.physical)}`)
  createColumnIndex(db, record.physical, { ...old, physical, kind })
  if (record.keyColumn === old.name) {
    record.physicalMap[old.name] = physical
    createKeyIndex(db, runtimeOf(record), old.name)
  }
  return physical
}

/**
 * Refuses a schema change that existing rows would violate: required/non-nullable with nulls, enum, pattern. A
 * pattern is checked only when it is new or changed (the values were checked against an unchanged one when
 * written), under a budget proportional to the values checked (decision 0701).
 */
function checkExistingValues(context: TablesContext, rt: TableRuntime, before: TableRuntime): void {
  const table = quoteIdent(rt.physical)
  const count = (sql: string, ...params: unknown[]) => context.db.prepare(`SELECT COUNT(*) FROM ${table} WHERE ${sql}`).pluck().get(...params) as number
  for (const column of rt.columns) {
    const col = quoteIdent(column.physical)
    if (column.required || !column.nullable) {
      const missing = count(`${col} IS NULL`)
      if (missing > 0) throw valuesMissing(column.name, missing)
    }
    if (column.column.enum) {
      const bad = count(`${col} IS NOT NULL AND ${col} NOT IN (${column.column.enum.map(() => '?').join(', ')})`, ...column.column.enum)
      if (bad > 0) throw valuesOutsideEnum(column.name, bad)
    }
    const previous = before.byName.get(column.name)
    const unchanged = previous !== undefined && previous.physical === column.physical && previous.column.pattern === column.column.pattern
    if (column.column.pattern !== undefined && !unchanged) {
      const pattern = column.column.pattern
      const bad = context.withRegexBudget(schemaRegexBudget(), () =>
        count(`${col} IS NOT NULL AND ${REGEXP_FUNCTION}(?, 'u', ?, ${col}) = 0`, pattern, `schema.${column.name}.pattern`),
      )
      if (bad > 0) throw valuesNotMatching(column.name, bad)
    }
  }
}

/**
 * Applies an `updateTable` schema input to a table (docs/decisions/0404-update-table-rules.md): removes, adds
 * and converts SQLite columns as `planSchemaChange` says, checks existing values against the new schema, and
 * rebuilds the search table (row vectors stay unless the searchable text changed: `syncRowVectors`). Updates `record` (schema, physical map, next column, key column when removed).
 * Call inside a transaction: on error nothing stays.
 *
 * @example
 * ```ts
 * applySchemaChange(context, record, { note: { type: 'string' }, age: null })
 * ```
 */
export function applySchemaChange(context: TablesContext, record: TableRecord, schemaInput: Record<string, unknown>): void {
  const { db } = context
  const plan = planSchemaChange(record.schema, schemaInput)
  const before = runtimeOf(record)
  const table = quoteIdent(record.physical)
  dropSearch(db, record.physical)
  dropRowVectorTrigger(db, record.physical)
  for (const name of plan.removed) {
    const column = before.byName.get(name)!
    if (record.keyColumn === name) {
      dropKeyIndex(db, record.physical)
      record.keyColumn = null
    }
    db.exec(`DROP INDEX IF EXISTS ${quoteIdent(columnIndexName(record.physical, column.physical))}`)
    db.exec(`ALTER TABLE ${table} DROP COLUMN ${quoteIdent(column.physical)}`)
    delete record.physicalMap[name]
  }
  for (const step of plan.steps) {
    if (step.action === 'convert') {
      record.physicalMap[step.name] = convertColumn(context, record, before.byName.get(step.name)!, step.to)
      continue
    }
    const column = tableColumn(step.name, step.column, `c${record.nextColumn++}`, false)
    db.exec(`ALTER TABLE ${table} ADD COLUMN ${quoteIdent(column.physical)} ${sqlTypeOf(column.kind)}`)
    createColumnIndex(db, record.physical, column)
    record.physicalMap[step.name] = column.physical
  }
  record.schema = plan.schema
  const after = runtimeOf(record)
  checkExistingValues(context, after, before)
  createSearch(db, after)
  syncRowVectors(db, before, after)
}
