import { decodeValue } from './tables-columns.js'
import type { ColumnKind } from '../tables/column-kinds.js'
import { normalizeDateTime } from '../tables/date-time.js'

/** The outcome of converting one value to another column kind. */
export type Conversion = { ok: true; value: string | number | null } | { ok: false }

/**
 * Converts a stored value when a column changes kind (decision 0404). Any kind converts to `string`
 * (numbers and booleans as text, objects and arrays as JSON); a string converts to a date, number,
 * boolean, object or array only when it reads as one; other changes only work on columns without values.
 *
 * @example
 * ```ts
 * convertStoredValue('number', 'string', 12) // { ok: true, value: '12' }
 * convertStoredValue('string', 'number', 'abc') // { ok: false }
 * ```
 */
export function convertStoredValue(from: ColumnKind, to: ColumnKind, stored: unknown): Conversion {
  if (stored === null || stored === undefined) return { ok: true, value: null }
  const value = decodeValue(from, stored)
  if (from === to) return { ok: true, value: stored as string | number }
  if (to === 'string') {
    if (from === 'object' || from === 'array') return { ok: true, value: JSON.stringify(value) }
    return { ok: true, value: String(value) }
  }
  if (from !== 'string' && from !== 'date') return { ok: false }
  const text = value as string
  switch (to) {
    case 'date': {
      const date = normalizeDateTime(text)
      return date === undefined ? { ok: false } : { ok: true, value: date }
    }
    case 'number': {
      const n = Number(text)
      return text.trim() !== '' && Number.isFinite(n) ? { ok: true, value: n } : { ok: false }
    }
    case 'boolean':
      return text === 'true' || text === 'false' ? { ok: true, value: text === 'true' ? 1 : 0 } : { ok: false }
    case 'object':
    case 'array': {
      try {
        const parsed: unknown = JSON.parse(text)
        const isArray = Array.isArray(parsed)
        const fits = to === 'array' ? isArray : typeof parsed === 'object' && parsed !== null && !isArray
        return fits ? { ok: true, value: JSON.stringify(parsed) } : { ok: false }
      } catch {
        return { ok: false }
      }
    }
  }
}
