import type { Table } from 'botshelf/client'
import { reservedColumnNames } from 'botshelf/api'
import { DataFileError } from '../io.js'

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
 * `createdAt`, `updatedAt`) are left out. A column made a string because a few values do not fit the type of
 * most (`age` with one `forty` among numbers) is described in `notes`, so the caller can say so rather than
 * silently store every value as text.
 *
 * @example
 * ```ts
 * inferSchema([{ name: 'Ada', age: '36' }], true) // { name: { type: 'string' }, age: { type: 'number' } }
 * const notes: string[] = []
 * inferSchema([{ age: '36' }, { age: 'forty' }], true, notes) // age: string; notes[0] names row 2 and "forty"
 * ```
 */
export function inferSchema(rows: ReadonlyArray<Record<string, unknown>>, fromCsv: boolean, notes?: string[]): Record<string, { type: ColumnType }> {
  const seen = new Map<string, Map<ColumnType, { count: number; row: number; value: unknown }>>()
  rows.forEach((row, index) => {
    for (const [column, value] of Object.entries(row)) {
      if (SYSTEM_COLUMNS.has(column)) continue
      const types = seen.get(column) ?? new Map<ColumnType, { count: number; row: number; value: unknown }>()
      seen.set(column, types)
      const type = typeOfValue(value, fromCsv)
      if (type === undefined) continue
      const found = types.get(type)
      if (found) found.count++
      else types.set(type, { count: 1, row: index + 1, value })
    }
  })
  const schema: Record<string, { type: ColumnType }> = {}
  for (const [column, types] of seen) {
    const [only] = types.keys()
    schema[column] = { type: types.size === 1 ? only! : 'string' }
    if (types.size > 1) {
      const [most, ...others] = [...types.entries()].sort((a, b) => b[1].count - a[1].count)
      const odd = others.sort((a, b) => a[1].row - b[1].row)[0]!
      const oddCount = others.reduce((sum, [, entry]) => sum + entry.count, 0)
      notes?.push(
        `column "${column}" is created as string: ${most![1].count} of its values are ${most![0]}s but ${oddCount} ${oddCount === 1 ? 'is' : 'are'} not ` +
          `(row ${odd[1].row}: ${JSON.stringify(odd[1].value)}); fix ${oddCount === 1 ? 'that value' : 'those values'}, or create the table first with the types you want`,
      )
    }
  }
  return schema
}

/**
 * Turns an imported row into the values of the table's columns: CSV text becomes the column's type (a
 * number, `true`/`false`, parsed JSON for objects and arrays), JSON values of a string column that are not
 * strings become their JSON text, system columns and empty values are dropped. A value that does not fit its
 * column is a `DataFileError` (exit 1) naming the row, the column, what was expected and what was received.
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
      throw new DataFileError(`row ${rowNumber}, column "${column}": expected ${expected}, received ${JSON.stringify(value)}`)
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
