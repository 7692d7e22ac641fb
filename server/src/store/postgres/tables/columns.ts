import type { ColumnKind } from '../../tables/column-kinds.js'
import { normalizeDateTime } from '../../tables/date-time.js'

/**
 * The PostgreSQL type of a kind. Strings and dates are `text COLLATE "C"`: bytewise order, as SQLite's BINARY
 * order, whatever the database's collation, and dates keep the exact ISO text SQLite stores and returns. Objects
 * and arrays are `json`, which keeps the text as written (`jsonb` would reorder keys, and the wire row would differ).
 *
 * @example
 * ```ts
 * pgTypeOf('number') // 'double precision'
 * ```
 */
export function pgTypeOf(kind: ColumnKind): string {
  switch (kind) {
    case 'number':
      return 'double precision'
    case 'boolean':
      return 'boolean'
    case 'object':
    case 'array':
      return 'json'
    default:
      return 'text COLLATE "C"'
  }
}

/**
 * The cast of a parameter holding a value of a kind (objects and arrays travel as JSON text).
 *
 * @example
 * ```ts
 * castOf('object') // 'text::json'
 * ```
 */
export function castOf(kind: ColumnKind): string {
  switch (kind) {
    case 'number':
      return 'float8'
    case 'boolean':
      return 'boolean'
    case 'object':
    case 'array':
      return 'text::json'
    default:
      return 'text'
  }
}

/**
 * Encodes a validated JS value for a parameter of its column (null stays null): dates normalized, objects and
 * arrays as JSON text.
 *
 * @example
 * ```ts
 * encodeValue('object', { a: 1 }) // '{"a":1}'
 * ```
 */
export function encodeValue(kind: ColumnKind, value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null
  switch (kind) {
    case 'date':
      return normalizeDateTime(value) ?? (value as string)
    case 'object':
    case 'array':
      return JSON.stringify(value)
    default:
      return value as string | number | boolean
  }
}

/**
 * Decodes a PostgreSQL value back to the JS value of its kind (the driver already parses `json` columns; text
 * is parsed here).
 *
 * @example
 * ```ts
 * decodeValue('array', '[1,2]') // [1, 2]
 * ```
 */
export function decodeValue(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null
  if ((kind === 'object' || kind === 'array') && typeof value === 'string') return JSON.parse(value)
  return value
}

/**
 * A value as it reads back after being stored (dates normalized, JSON copied), without a round trip.
 *
 * @example
 * ```ts
 * storedValue('date', '2026-01-01') // '2026-01-01T00:00:00.000Z'
 * ```
 */
export function storedValue(kind: ColumnKind, value: unknown): unknown {
  return decodeValue(kind, encodeValue(kind, value))
}
