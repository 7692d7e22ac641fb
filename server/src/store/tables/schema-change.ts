import type { Column, TableJsonSchema } from 'botshelf/api'
import { tablesLimits } from 'botshelf/api'
import { columnKind, type ColumnKind } from './column-kinds.js'
import { normalizeDateTime } from './date-time.js'
import { invalidSchema, TablesStoreError } from './errors.js'
import { readSchemaInput } from './schema-input.js'
import { buildTableSchema, checkColumnPatterns, finalizeColumn, orderedColumns, schemaColumn } from './table-schema.js'

/** One storage change a schema change needs, besides removals: a new column, or a column whose kind changes. */
export type SchemaChangeStep =
  | { action: 'add'; name: string; column: Column }
  | { action: 'convert'; name: string; from: ColumnKind; to: ColumnKind }

/** What an `updateTable` schema input changes, worked out before any storage is touched. */
export interface SchemaChangePlan {
  /** Existing columns the input removes (`null` or `{ type: 'null' }`); unknown names are ignored. */
  removed: string[]
  /** New columns and kind changes, in input order. */
  steps: SchemaChangeStep[]
  /** The table's normalized schema after the change. */
  schema: TableJsonSchema
}

/**
 * Merges a schema input into the current schema column by column (decision 0404): a given column is added
 * (after the others) or redefined in place, `null`/`{ type: 'null' }` removes it, columns not named stay;
 * `required`, when given, replaces the list. Refuses more than 20 columns and `required` names that are not
 * columns. Whether existing values fit is for the backend to check.
 *
 * @example
 * ```ts
 * const plan = planSchemaChange(record.schema, { note: { type: 'string' }, age: null })
 * // { removed: ['age'], steps: [{ action: 'add', name: 'note', column: ... }], schema: ... }
 * ```
 */
export function planSchemaChange(current: TableJsonSchema, input: Record<string, unknown>): SchemaChangePlan {
  const parsed = readSchemaInput(input)
  const removed = parsed.removed.filter((name) => schemaColumn(current, name) !== undefined)
  const columns = orderedColumns(current).filter((c) => !removed.includes(c.name))
  let required = (current.required ?? []).filter((name) => !removed.includes(name))
  const steps: SchemaChangeStep[] = []
  let nextIndex = columns.reduce((max, c) => Math.max(max, c.column['x-zui'].index + 1), 0)
  for (const { name, draft } of parsed.columns) {
    const existing = columns.find((c) => c.name === name)
    if (existing) {
      const column = finalizeColumn(draft, existing.column['x-zui'].index)
      const from = columnKind(existing.column)
      const to = columnKind(column)
      if (from !== to) steps.push({ action: 'convert', name, from, to })
      existing.column = column
    } else {
      const column = finalizeColumn(draft, nextIndex++)
      steps.push({ action: 'add', name, column })
      columns.push({ name, column })
    }
  }
  if (columns.length > tablesLimits.columnsPerTable) {
    throw new TablesStoreError('LimitExceeded', 'LIMIT_EXCEEDED', `schema: a table has at most ${tablesLimits.columnsPerTable} columns; this change makes ${columns.length}`)
  }
  if (parsed.required !== undefined) required = parsed.required
  for (const name of required) {
    if (!columns.some((c) => c.name === name)) throw invalidSchema(`schema.required: "${name}" is not a column`)
  }
  // Only a change that brings a pattern is measured: a table from before the limits keeps working as it is.
  if (parsed.columns.some(({ draft }) => draft.pattern !== undefined)) checkColumnPatterns(columns)
  return { removed, steps, schema: buildTableSchema(columns, required, parsed.$schema ?? current.$schema) }
}

/** The outcome of converting one value to another column kind. */
export type Conversion = { ok: true; value: unknown } | { ok: false }

/**
 * The value a stored value becomes when its column changes kind. A change of JSON type resets it to `null`, as
 * Botpress does (its CLI warns that the values become null; issue 25): `number` → `string`, `string` → `boolean`...
 * Within the string kinds (`string` ↔ `date-time`) a value is kept when it reads as the new kind, and the change is
 * refused otherwise (decision 0404). `null` stays `null`.
 *
 * @example
 * ```ts
 * convertColumnValue('number', 'string', 12) // { ok: true, value: null }
 * convertColumnValue('date', 'string', '2026-01-01T00:00:00.000Z') // { ok: true, value: '2026-01-01T00:00:00.000Z' }
 * convertColumnValue('string', 'date', 'soon') // { ok: false }
 * ```
 */
export function convertColumnValue(from: ColumnKind, to: ColumnKind, value: unknown): Conversion {
  if (value === null || value === undefined) return { ok: true, value: null }
  if (from === to) return { ok: true, value }
  const textKinds: ReadonlySet<ColumnKind> = new Set(['string', 'date'])
  if (!textKinds.has(from) || !textKinds.has(to)) return { ok: true, value: null }
  if (to === 'string') return { ok: true, value: String(value) }
  const date = normalizeDateTime(value as string)
  return date === undefined ? { ok: false } : { ok: true, value: date }
}

/**
 * `BreakingChanges` for a kind change that existing values do not survive (`example` is one of them).
 *
 * @example
 * ```ts
 * throw unconvertibleValues('age', 'string', 'number', 3, 'abc')
 * ```
 */
export function unconvertibleValues(column: string, from: ColumnKind, to: ColumnKind, count: number, example: unknown): TablesStoreError {
  return new TablesStoreError(
    'BreakingChanges',
    'BREAKING_CHANGE',
    `schema.${column}: cannot change the column from ${from} to ${to}: ${count} existing value${count === 1 ? '' : 's'} do not convert (e.g. ${JSON.stringify(example)}); clear or fix them first`,
  )
}

/**
 * `BreakingChanges` for a column made required or non-nullable while rows have no value there.
 *
 * @example
 * ```ts
 * if (missing > 0) throw valuesMissing('age', missing)
 * ```
 */
export function valuesMissing(column: string, count: number): TablesStoreError {
  return new TablesStoreError(
    'BreakingChanges',
    'BREAKING_CHANGE',
    `schema.${column}: ${count} existing row${count === 1 ? ' has' : 's have'} no value, so the column cannot be required or non-nullable`,
  )
}

/**
 * `BreakingChanges` for an `enum` that existing values are not in.
 *
 * @example
 * ```ts
 * if (bad > 0) throw valuesOutsideEnum('status', bad)
 * ```
 */
export function valuesOutsideEnum(column: string, count: number): TablesStoreError {
  return new TablesStoreError('BreakingChanges', 'BREAKING_CHANGE', `schema.${column}.enum: ${count} existing value${count === 1 ? ' is' : 's are'} not in the new enum`)
}

/**
 * `BreakingChanges` for a `pattern` that existing values do not match.
 *
 * @example
 * ```ts
 * if (bad > 0) throw valuesNotMatching('code', bad)
 * ```
 */
export function valuesNotMatching(column: string, count: number): TablesStoreError {
  return new TablesStoreError('BreakingChanges', 'BREAKING_CHANGE', `schema.${column}.pattern: ${count} existing value${count === 1 ? ' does' : 's do'} not match the new pattern`)
}
