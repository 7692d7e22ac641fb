import type { Column } from 'botshelf/client'

/** The column types the console offers: the JSON types, and `date` (a string in ISO 8601 date-time format). */
export const columnTypeChoices = ['string', 'number', 'boolean', 'date', 'object', 'array'] as const

/** A column type the console offers. */
export type ColumnTypeChoice = (typeof columnTypeChoices)[number]

/**
 * The type a column shows as (`date` for date-time strings).
 *
 * @example
 * ```ts
 * columnTypeOf({ type: 'string', format: 'date-time', 'x-zui': { index: 0 } }) // 'date'
 * ```
 */
export function columnTypeOf(column: Column): ColumnTypeChoice | 'null' {
  if (column.type === 'string' && column.format === 'date-time') return 'date'
  return column.type
}

/**
 * A new column's definition for a chosen type.
 *
 * @example
 * ```ts
 * columnDefinition('date') // { type: 'string', format: 'date-time' }
 * ```
 */
export function columnDefinition(type: ColumnTypeChoice): Record<string, unknown> {
  return type === 'date' ? { type: 'string', format: 'date-time' } : { type }
}

/**
 * An existing column retyped: its other settings kept (description, nullability, searchable), the type and the
 * date format replaced; the service applies its own conversion rules and answers `BreakingChanges` when values
 * do not convert.
 *
 * @example
 * ```ts
 * retypedColumn(column, 'number') // { type: 'number', 'x-zui': { searchable: true } }
 * ```
 */
export function retypedColumn(column: Column, type: ColumnTypeChoice): Record<string, unknown> {
  const { format: _format, 'x-zui': zui, type: _type, ...rest } = column
  const { index: _index, ...settings } = zui
  return { ...rest, ...columnDefinition(type), 'x-zui': settings }
}
