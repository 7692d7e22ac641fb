import type { Table } from 'botshelf/client'
import type { ColumnKind } from './filter-query.js'

/**
 * The kind of every column a filter may name: the table's columns (date-time strings as `date`) and the system
 * columns `id`, `createdAt`, `updatedAt`.
 *
 * @example
 * ```ts
 * columnKinds(table) // { id: 'number', createdAt: 'date', updatedAt: 'date', name: 'string', age: 'number' }
 * ```
 */
export function columnKinds(table: Table): Record<string, ColumnKind> {
  const kinds: Record<string, ColumnKind> = { id: 'number', createdAt: 'date', updatedAt: 'date' }
  for (const [name, column] of Object.entries(table.schema.properties)) {
    kinds[name] = column.format === 'date-time' ? 'date' : column.type === 'null' ? 'string' : column.type
  }
  return kinds
}

/**
 * The table's column names in their schema order (`x-zui.index`).
 *
 * @example
 * ```ts
 * columnNames(table) // ['name', 'age']
 * ```
 */
export function columnNames(table: Table): string[] {
  return Object.entries(table.schema.properties)
    .sort(([, a], [, b]) => a['x-zui'].index - b['x-zui'].index)
    .map(([name]) => name)
}

/**
 * The text a cell editor starts from and the value it sends back: strings as typed, other types as JSON.
 *
 * @example
 * ```ts
 * cellText(42) // '42'
 * parseCell('42', 'number') // { ok: true, value: 42 }
 * ```
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/** See {@link cellText}. @example `parseCell('', 'string') // { ok: true, value: null }` */
export function parseCell(text: string, kind: ColumnKind): { ok: true; value: unknown } | { ok: false; error: string } {
  if (text === '') return { ok: true, value: null }
  if (kind === 'string' || kind === 'date') return { ok: true, value: text }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false, error: `expected ${kind === 'number' ? 'a number' : kind === 'boolean' ? 'true or false' : `JSON (${kind})`}, received "${text}"` }
  }
}
