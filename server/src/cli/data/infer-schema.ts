import type { Table } from 'botshelf/client'
import { reservedColumnNames } from 'botshelf/api'
import { UsageError } from '../io.js'

/** A column type a table can have, as `createTable` takes it. */
export type ColumnType = 'string' | 'number' | 'boolean' | 'object' | 'array'

/**
 * The fields every row has and an import never writes: the service sets them (`id`, times, `computed` statuses,
 * `stale`, a search's `similarity`). An export carries them; reading them back skips them, so a JSON export imports
 * again (issue 25).
 */
export const SYSTEM_COLUMNS: ReadonlySet<string> = new Set([...reservedColumnNames, 'similarity'])

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

function typeOfValue(value: unknown, fromCsv: boolean): ColumnType | undefined {
  if (value === null || value === undefined) return undefined
  if (fromCsv && typeof value === 'string') {
    if (NUMBER.test(value.trim()) && Number.isFinite(Number(value))) return 'number'
    if (value === 'true' || value === 'false') return 'boolean'
    return 'string'
  }
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'object') return 'object'
  if (typeof value === 'number') return 'number'
  if (typeof value === 'boolean') return 'boolean'
  return 'string'
}

/**
 * Infers a table schema from sample rows: a column is a number when every value it has is one (in CSV: text
 * that reads as a number), a boolean when every value is `true`/`false`, an object or array when every JSON
 * value is one, and a string otherwise (mixed values, or no value at all). System columns (`id`,
 * `createdAt`, `updatedAt`) are left out.
 *
 * @example
 * ```ts
 * inferSchema([{ name: 'Ada', age: '36' }], true) // { name: { type: 'string' }, age: { type: 'number' } }
 * ```
 */
export function inferSchema(rows: ReadonlyArray<Record<string, unknown>>, fromCsv: boolean): Record<string, { type: ColumnType }> {
  const seen = new Map<string, ColumnType | 'none' | 'mixed'>()
  for (const row of rows) {
    for (const [column, value] of Object.entries(row)) {
      if (SYSTEM_COLUMNS.has(column)) continue
      const type = typeOfValue(value, fromCsv)
      const before = seen.get(column) ?? 'none'
      if (type === undefined) seen.set(column, before)
      else if (before === 'none') seen.set(column, type)
      else if (before !== type) seen.set(column, 'mixed')
    }
  }
  const schema: Record<string, { type: ColumnType }> = {}
  for (const [column, type] of seen) schema[column] = { type: type === 'none' || type === 'mixed' ? 'string' : type }
  return schema
}

/**
 * Turns an imported row into the values of the table's columns: CSV text becomes the column's type (a
 * number, `true`/`false`, parsed JSON for objects and arrays), JSON values of a string column that are not
 * strings become their JSON text, system columns and empty values are dropped. A value that does not fit its
 * column is a `UsageError` naming the row, the column, what was expected and what was received.
 *
 * @example
 * ```ts
 * rowForTable({ age: '36' }, { age: 'number' }, true, 2) // { age: 36 }
 * ```
 */
export function rowForTable(row: Record<string, unknown>, types: Readonly<Record<string, string>>, fromCsv: boolean, rowNumber: number): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [column, value] of Object.entries(row)) {
    if (SYSTEM_COLUMNS.has(column) || value === null || value === undefined) continue
    const type = types[column]
    const fail = (expected: string): never => {
      throw new UsageError(`row ${rowNumber}, column "${column}": expected ${expected}, received ${JSON.stringify(value)}`)
    }
    if (!fromCsv || typeof value !== 'string') {
      out[column] = type === 'string' && typeof value !== 'string' ? JSON.stringify(value) : value
      continue
    }
    switch (type) {
      case 'number':
        if (!NUMBER.test(value.trim()) || !Number.isFinite(Number(value))) fail('a number')
        out[column] = Number(value)
        break
      case 'boolean':
        if (value !== 'true' && value !== 'false') fail('true or false')
        out[column] = value === 'true'
        break
      case 'object':
      case 'array': {
        let parsed: unknown
        try {
          parsed = JSON.parse(value)
        } catch {
          fail(`JSON ${type === 'object' ? 'object' : 'array'} text`)
        }
        out[column] = parsed
        break
      }
      default:
        out[column] = value
    }
  }
  return out
}

/**
 * The type of each column of a table, by name.
 *
 * @example
 * ```ts
 * columnTypes(table) // { name: 'string', age: 'number' }
 * ```
 */
export function columnTypes(table: Table): Record<string, string> {
  return Object.fromEntries(Object.entries(table.schema.properties).map(([name, column]) => [name, column.type]))
}

/**
 * The columns of a table in their order (`x-zui.index`).
 *
 * @example
 * ```ts
 * orderedColumns(table) // ['name', 'age']
 * ```
 */
export function orderedColumns(table: Table): string[] {
  return Object.entries(table.schema.properties)
    .sort(([, a], [, b]) => (a['x-zui'].index ?? 0) - (b['x-zui'].index ?? 0))
    .map(([name]) => name)
}
