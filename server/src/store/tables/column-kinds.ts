import type { Column } from 'botshelf/api'

/**
 * How a column's values are typed, validated and compared. `date` is a string column with
 * `format: date-time`, kept as a normalized ISO UTC string so that text order is time order.
 */
export type ColumnKind = 'string' | 'date' | 'number' | 'boolean' | 'object' | 'array'

/**
 * The kind of a normalized column definition.
 *
 * @example
 * ```ts
 * columnKind({ type: 'string', format: 'date-time' }) // 'date'
 * ```
 */
export function columnKind(column: Pick<Column, 'type' | 'format'>): ColumnKind {
  if (column.type === 'string') return column.format === 'date-time' ? 'date' : 'string'
  if (column.type === 'null') throw new Error('A column cannot have type "null"')
  return column.type
}

/**
 * Kinds whose values are single comparable values: they can be indexed, sorted, grouped on, and be a key column.
 *
 * @example
 * ```ts
 * scalarKinds.has('date') // true
 * scalarKinds.has('object') // false
 * ```
 */
export const scalarKinds: ReadonlySet<ColumnKind> = new Set(['string', 'date', 'number', 'boolean'])

/**
 * Kinds with an order that means something: `$gt`… in filters, and `min`/`max` in groups, apply to them only.
 *
 * @example
 * ```ts
 * orderedKinds.has('boolean') // false
 * ```
 */
export const orderedKinds: ReadonlySet<ColumnKind> = new Set(['number', 'string', 'date'])
