import type { Column } from '../../api/tables/index.js'

/**
 * How a column is stored and compared: one SQLite column per user column, typed by its kind.
 * `date` is a string column with `format: date-time`, stored as a normalized ISO string so that text
 * order is time order.
 */
export type ColumnKind = 'string' | 'date' | 'number' | 'boolean' | 'object' | 'array'

/**
 * A user column as the store keeps it: its name, its SQLite column (`c<N>`, stable across renames) and its kind.
 */
export interface StoredColumn {
  name: string
  physical: string
  kind: ColumnKind
}

/**
 * The kind of a normalized column definition.
 *
 * @example
 * ```ts
 * columnKind({ type: 'string', format: 'date-time', 'x-zui': { index: 0 } }) // 'date'
 * ```
 */
export function columnKind(column: Pick<Column, 'type' | 'format'>): ColumnKind {
  if (column.type === 'string') return column.format === 'date-time' ? 'date' : 'string'
  if (column.type === 'null') throw new Error('A column cannot have type "null"')
  return column.type
}

/**
 * The SQLite declared type of a kind: numbers are REAL, booleans INTEGER 0/1, everything else TEXT
 * (objects and arrays as JSON text).
 *
 * @example
 * ```ts
 * sqlTypeOf('number') // 'REAL'
 * ```
 */
export function sqlTypeOf(kind: ColumnKind): 'TEXT' | 'REAL' | 'INTEGER' {
  if (kind === 'number') return 'REAL'
  if (kind === 'boolean') return 'INTEGER'
  return 'TEXT'
}

/** Kinds whose values are single comparable SQL values (indexed, sortable, groupable). */
export const scalarKinds: ReadonlySet<ColumnKind> = new Set(['string', 'date', 'number', 'boolean'])

/**
 * Encodes a validated JS value for its SQLite column (null stays null).
 *
 * @example
 * ```ts
 * encodeValue('boolean', true) // 1
 * encodeValue('object', { a: 1 }) // '{"a":1}'
 * ```
 */
export function encodeValue(kind: ColumnKind, value: unknown): string | number | null {
  if (value === null || value === undefined) return null
  switch (kind) {
    case 'boolean':
      return value ? 1 : 0
    case 'number':
      return value as number
    case 'date':
      return normalizeDateTime(value) ?? (value as string)
    case 'object':
    case 'array':
      return JSON.stringify(value)
    default:
      return value as string
  }
}

/**
 * Decodes a SQLite value back to the JS value of its kind.
 *
 * @example
 * ```ts
 * decodeValue('boolean', 1) // true
 * ```
 */
export function decodeValue(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null
  switch (kind) {
    case 'boolean':
      return value === 1 || value === 1n || value === true
    case 'object':
    case 'array':
      return JSON.parse(value as string)
    default:
      return value
  }
}

/**
 * Quotes an SQL identifier (our physical names are plain, but quoting keeps it safe).
 *
 * @example
 * ```ts
 * quoteIdent('ut_01abc') // '"ut_01abc"'
 * ```
 */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i

/**
 * Tells whether a string is an ISO 8601 date-time with a zone (`2026-01-02T03:04:05Z`, `...+02:00`).
 *
 * @example
 * ```ts
 * isIsoDateTime('2026-01-02T03:04:05.000Z') // true
 * isIsoDateTime('2026-01-02') // false
 * ```
 */
export function isIsoDateTime(value: unknown): value is string {
  return typeof value === 'string' && ISO_DATE_TIME.test(value) && !Number.isNaN(new Date(value).getTime())
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/
const NO_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?$/i

/**
 * Normalizes a date-time value to ISO UTC (`2026-01-02T03:04:05.000Z`), or `undefined` when it is not one.
 * Accepts an ISO 8601 date-time with a zone, one without a zone (read as UTC), or a date alone (UTC midnight),
 * as in the official docs' `{ createdAt: { $lt: '2026-01-01' } }`.
 *
 * @example
 * ```ts
 * normalizeDateTime('2026-01-01') // '2026-01-01T00:00:00.000Z'
 * normalizeDateTime('2026-01-01T10:00+02:00') // '2026-01-01T08:00:00.000Z'
 * normalizeDateTime('yesterday') // undefined
 * ```
 */
export function normalizeDateTime(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  let text = value
  if (DATE_ONLY.test(text)) text = `${text}T00:00:00Z`
  else if (NO_ZONE.test(text)) text = `${text}Z`
  if (!isIsoDateTime(text)) return undefined
  return new Date(text).toISOString()
}
