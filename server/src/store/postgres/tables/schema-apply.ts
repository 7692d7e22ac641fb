import { dropRowVectorTrigger, syncRowVectors } from './row-vectors.js'
import { schemaRegexBudget } from '../../tables/regex-budget.js'
import { compileSafeRegex } from '../../tables/safe-regex.js'
import { convertColumnValue, planSchemaChange, unconvertibleValues, valuesMissing, valuesNotMatching, valuesOutsideEnum } from '../../tables/schema-change.js'
import { tableColumn, type TableColumn } from '../../tables/table-columns.js'
import type { TableRecord } from '../../tables/types.js'
import { castOf, decodeValue, encodeValue, pgTypeOf } from './columns.js'
import { query, quoteIdent, type PgTablesContext } from './context.js'
import { columnIndexName, createColumnIndex, createKeyIndex, createSearch, dropKeyIndex, dropSearch } from './ddl.js'
import { runtimeOf, type PgTableRuntime } from './runtime.js'

/** Values read per round trip when a column is converted or checked against a pattern. */
const BATCH = 1000

/** Moves a column's values to a new column of the new kind, converting each; returns the new column's name. */
async function convertColumn(context: PgTablesContext, record: TableRecord, old: TableColumn, kind: TableColumn['kind']): Promise<string> {
  const table = quoteIdent(record.physical)
  const physical = `c${record.nextColumn++}`
  const converted: Array<[number, string | number | boolean | null]> = []
  let failures = 0
  let example: unknown
  const text = `SELECT id, ${quoteIdent(old.physical)} AS v FROM ${table} WHERE ${quoteIdent(old.physical)} IS NOT NULL`
  for await (const rows of context.sql.unsafe(text).cursor(BATCH)) {
    for (const { id, v } of rows as unknown as Array<{ id: number; v: unknown }>) {
      const result = convertColumnValue(old.kind, kind, decodeValue(old.kind, v))
      if (result.ok) converted.push([id, encodeValue(kind, result.value)])
      else {
        failures++
        example ??= decodeValue(old.kind, v)
      }
    }
  }
  if (failures > 0) throw unconvertibleValues(old.name, old.kind, kind, failures, example)
  await query(context, `ALTER TABLE ${table} ADD COLUMN ${quoteIdent(physical)} ${pgTypeOf(kind)}`)
  const cast = castOf(kind)
  for (let start = 0; start < converted.length; start += BATCH) {
    const chunk = converted.slice(start, start + BATCH)
    // Values travel as text (JSON text for objects and arrays) and take the column's type in SQL.
    await query(
      context,
      `UPDATE ${table} SET ${quoteIdent(physical)} = x.v::${cast} FROM unnest($1::int[], $2::text[]) AS x(id, v) WHERE ${table}.id = x.id`,
      [chunk.map(([id]) => id), chunk.map(([, v]) => (v === null ? null : String(v)))],
    )
  }
  if (record.keyColumn === old.name) await dropKeyIndex(context, record.physical)
  await query(context, `DROP INDEX IF EXISTS ${quoteIdent(columnIndexName(record.physical, old.physical))}`)
  await query(context, `ALTER TABLE ${table} DROP COLUMN ${quoteIdent(old.physical)}`)
  await createColumnIndex(context, record.physical, { ...old, physical, kind })
  if (record.keyColumn === old.name) {
    record.physicalMap[old.name] = physical
    await createKeyIndex(context, runtimeOf(record), old.name)
  }
  return physical
}

/** How many rows hold a value matching `sql` (a condition over the rows table). */
async function count(context: PgTablesContext, rt: PgTableRuntime, sql: string, params: unknown[] = []): Promise<number> {
  return (await query(context, `SELECT count(*)::int AS n FROM ${quoteIdent(rt.physical)} WHERE ${sql}`, params))[0]!['n'] as number
}

/** Rows whose value does not match a new or changed pattern, matched in the process under the schema budget. */
async function countNotMatching(context: PgTablesContext, rt: PgTableRuntime, column: TableColumn, pattern: string): Promise<number> {
  const col = quoteIdent(column.physical)
  const regex = compileSafeRegex(pattern, 'u', { bounded: false })
  const budget = schemaRegexBudget()
  const path = `schema.${column.name}.pattern`
  let bad = 0
  const text = `SELECT ${col}::text AS v, count(*)::int AS n FROM ${quoteIdent(rt.physical)} WHERE ${col} IS NOT NULL GROUP BY ${col}`
  for await (const rows of context.sql.unsafe(text).cursor(BATCH)) {
    for (const row of rows as unknown as Array<{ v: string; n: number }>) if (!budget.test(regex, row.v, path)) bad += row.n
  }
  return bad
}

/**
 * Refuses a schema change that existing rows would violate: required/non-nullable with nulls, enum, pattern. A
 * pattern is checked only when it is new or changed, under a budget proportional to the values checked (0701).
 */
async function checkExistingValues(context: PgTablesContext, rt: PgTableRuntime, before: PgTableRuntime): Promise<void> {
  for (const column of rt.columns) {
    const col = quoteIdent(column.physical)
    if (column.required || !column.nullable) {
      const missing = await count(context, rt, `${col} IS NULL`)
      if (missing > 0) throw valuesMissing(column.name, missing)
    }
    if (column.column.enum) {
      const whole = column.kind === 'object' || column.kind === 'array'
      const allowed = column.column.enum.map((v) => encodeValue(column.kind, v))
      const value = whole ? `${col}::text` : col
      const bad = await count(context, rt, `${col} IS NOT NULL AND NOT (${value} = ANY($1::${whole ? 'text' : castOf(column.kind)}[]))`, [allowed])
      if (bad > 0) throw valuesOutsideEnum(column.name, bad)
    }
    const previous = before.byName.get(column.name)
    const unchanged = previous !== undefined && previous.physical === column.physical && previous.column.pattern === column.column.pattern
    if (column.column.pattern !== undefined && !unchanged) {
      const bad = await countNotMatching(context, rt, column, column.column.pattern)
      if (bad > 0) throw valuesNotMatching(column.name, bad)
    }
  }
}

/**
 * Applies an `updateTable` schema input to a table (docs/decisions/0404-update-table-rules.md): removes, adds and
 * converts columns as `planSchemaChange` says, checks existing values against the new schema, and rebuilds the
 * search column (row vectors stay unless the searchable text changed: `syncRowVectors`). Updates `record`. Call inside a transaction: on error nothing stays (PostgreSQL DDL is transactional).
 *
 * @example
 * ```ts
 * await applySchemaChange(tx, record, { note: { type: 'string' }, age: null })
 * ```
 */
export async function applySchemaChange(context: PgTablesContext, record: TableRecord, schemaInput: Record<string, unknown>): Promise<void> {
  const plan = planSchemaChange(record.schema, schemaInput)
  const before = runtimeOf(record)
  const table = quoteIdent(record.physical)
  await dropSearch(context, record.physical)
  await dropRowVectorTrigger(context, record.physical)
  for (const name of plan.removed) {
    const column = before.byName.get(name)!
    if (record.keyColumn === name) {
      await dropKeyIndex(context, record.physical)
      record.keyColumn = null
    }
    await query(context, `ALTER TABLE ${table} DROP COLUMN ${quoteIdent(column.physical)}`)
    delete record.physicalMap[name]
  }
  for (const step of plan.steps) {
    if (step.action === 'convert') {
      record.physicalMap[step.name] = await convertColumn(context, record, before.byName.get(step.name)!, step.to)
      continue
    }
    const column = tableColumn(step.name, step.column, `c${record.nextColumn++}`, false)
    await query(context, `ALTER TABLE ${table} ADD COLUMN ${quoteIdent(column.physical)} ${pgTypeOf(column.kind)}`)
    await createColumnIndex(context, record.physical, column)
    record.physicalMap[step.name] = column.physical
  }
  record.schema = plan.schema
  const after = runtimeOf(record)
  await checkExistingValues(context, after, before)
  await createSearch(context, after)
  await syncRowVectors(context, before, after)
}
