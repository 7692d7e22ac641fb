import type { ColumnKind } from '../../tables/column-kinds.js'
import { normalizeDateTime } from '../../tables/date-time.js'

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

export { quoteIdent } from '../../tables/column-sql.js'
