import { describeValue } from 'botshelf/api'
import type { ColumnKind } from '../column-kinds.js'
import { normalizeDateTime } from '../date-time.js'
import { invalidQuery, type TablesStoreError } from '../errors.js'
import type { ElementOperand, FilterOperand } from './ast.js'

/**
 * Tells a JSON object (not an array, not `null`) from other values.
 *
 * @example
 * ```ts
 * isPlainObject({ $gt: 1 }) // true
 * isPlainObject([1]) // false
 * ```
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The `InvalidQuery` error for an operand of the wrong type: `<path>: expected <what>, received <value>`.
 *
 * @example
 * ```ts
 * throw operandProblem('filter.age.$gt', 'a number', '5') // filter.age.$gt: expected a number, received "5"
 * ```
 */
export function operandProblem(path: string, expected: string, value: unknown): TablesStoreError {
  return invalidQuery(`${path}: expected ${expected}, received ${describeValue(value)}`)
}

/**
 * Types an operand compared with a column of `kind`, or refuses it (no MongoDB type bracketing: `$gt: '5'` on a
 * number column is an error). Dates are normalized to ISO UTC.
 *
 * @example
 * ```ts
 * columnOperand('date', '2026-01-01', 'filter.at') // { type: 'date', value: '2026-01-01T00:00:00.000Z' }
 * ```
 */
export function columnOperand(kind: ColumnKind, value: unknown, path: string): FilterOperand {
  switch (kind) {
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw operandProblem(path, 'a number', value)
      return { type: 'number', value }
    case 'string':
      if (typeof value !== 'string') throw operandProblem(path, 'a string', value)
      return { type: 'string', value }
    case 'date': {
      const date = normalizeDateTime(value)
      if (date === undefined) throw operandProblem(path, 'an ISO 8601 date or date-time string', value)
      return { type: 'date', value: date }
    }
    case 'boolean':
      if (typeof value !== 'boolean') throw operandProblem(path, 'a boolean', value)
      return { type: 'boolean', value }
    case 'object':
      if (!isPlainObject(value)) throw operandProblem(path, 'an object', value)
      return { type: 'object', value }
    case 'array':
      if (!Array.isArray(value)) throw operandProblem(path, 'an array', value)
      return { type: 'array', value }
  }
}

/**
 * Tells whether a value is one an array column is searched for element-wise (rather than compared whole).
 *
 * @example
 * ```ts
 * isElementValue('x') // true
 * isElementValue(['x']) // false
 * ```
 */
export function isElementValue(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
}

/**
 * Types one element an array column is searched for: a string, a finite number or a boolean.
 *
 * @example
 * ```ts
 * elementOperand('x', 'filter.tags') // { type: 'string', value: 'x' }
 * ```
 */
export function elementOperand(value: unknown, path: string): ElementOperand {
  if (typeof value === 'string') return { type: 'string', value }
  if (typeof value === 'number' && Number.isFinite(value)) return { type: 'number', value }
  if (typeof value === 'boolean') return { type: 'boolean', value }
  throw operandProblem(path, 'a string, number or boolean element', value)
}

/**
 * Types an operand compared with a value inside an object column: a string or a finite number.
 *
 * @example
 * ```ts
 * pathOperand(10, 'filter.attributes.price.$gte') // { type: 'number', value: 10 }
 * ```
 */
export function pathOperand(value: unknown, path: string): Extract<FilterOperand, { type: 'string' | 'number' }> {
  if (typeof value === 'string') return { type: 'string', value }
  if (typeof value === 'number' && Number.isFinite(value)) return { type: 'number', value }
  throw invalidQuery(`${path}: expected a string or a number, received ${describeValue(value)}`)
}
