import type { TableRecord } from '../store/index.js'
import { columnKind } from '../store/tables/index.js'

/**
 * The user columns of a table in schema order, each with its kind: what import typing and export headers use.
 *
 * @example
 * ```ts
 * columnsOf(record) // [{ name: 'total', kind: 'number' }, { name: 'customer', kind: 'string' }]
 * ```
 */
export function columnsOf(record: TableRecord): Array<{ name: string; kind: ReturnType<typeof columnKind> }> {
  return Object.entries(record.schema.properties)
    .sort((a, b) => a[1]['x-zui'].index - b[1]['x-zui'].index)
    .map(([name, column]) => ({ name, kind: columnKind(column) }))
}
