import { filterOperators } from '../../api/tables/index.js'
import { describeValue } from '../../issues/index.js'
import { orderedKinds, type ColumnKind } from '../tables/column-kinds.js'
import { normalizeDateTime } from '../tables/date-time.js'
import { invalidQuery } from '../tables/errors.js'
import { checkRegex, REGEXP_FUNCTION } from './tables-regex.js'
import { compileNested, type NestedFilterColumn } from './tables-filter-nested.js'

/** How a filter reaches one column: its SQL expression and its kind. */
export interface FilterColumn {
  sql: string
  kind: ColumnKind
}

/**
 * Resolves a column name of the filter (user or system) to SQL, or `undefined` when unknown. A dot path into
 * an object column (`attributes.price`) resolves to a nested column.
 */
export type ColumnResolver = (name: string, path: string) => FilterColumn | NestedFilterColumn | undefined

/** Compiled SQL: a boolean expression that is never NULL, and its positional parameters. */
export interface CompiledSql {
  sql: string
  params: unknown[]
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const KNOWN_OPERATORS: ReadonlySet<string> = new Set(filterOperators)

/** Bounds that keep a filter far from SQLite's limits (variables, expression depth) and the JS stack. */
export const filterLimits = { maxDepth: 16, maxInValues: 1000, maxParams: 5000 } as const

function operandProblem(path: string, expected: string, value: unknown): Error {
  return invalidQuery(`${path}: expected ${expected}, received ${describeValue(value)}`)
}

/** Turns a comparison operand into the SQL value of the column kind, or refuses it. */
function encodeOperand(column: FilterColumn, value: unknown, path: string): string | number {
  switch (column.kind) {
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw operandProblem(path, 'a number', value)
      return value
    case 'string':
      if (typeof value !== 'string') throw operandProblem(path, 'a string', value)
      return value
    case 'date': {
      const date = normalizeDateTime(value)
      if (date === undefined) throw operandProblem(path, 'an ISO 8601 date or date-time string', value)
      return date
    }
    case 'boolean':
      if (typeof value !== 'boolean') throw operandProblem(path, 'a boolean', value)
      return value ? 1 : 0
    case 'object':
      if (!isPlainObject(value)) throw operandProblem(path, 'an object', value)
      return JSON.stringify(value)
    case 'array':
      if (!Array.isArray(value)) throw operandProblem(path, 'an array', value)
      return JSON.stringify(value)
  }
}

/** The SQL value of an array element operand (array columns match element-wise). */
function encodeElement(value: unknown, path: string): string | number {
  if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) return value
  if (typeof value === 'boolean') return value ? 1 : 0
  throw operandProblem(path, 'a string, number or boolean element', value)
}

const isScalarOperand = (value: unknown) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'

function equality(column: FilterColumn, value: unknown, path: string, params: unknown[]): string {
  if (value === null) return `(${column.sql} IS NULL)`
  if (column.kind === 'array' && isScalarOperand(value)) {
    params.push(encodeElement(value, path))
    return `(${column.sql} IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(${column.sql}) WHERE json_each.value = ?))`
  }
  params.push(encodeOperand(column, value, path))
  return `(${column.sql} IS NOT NULL AND ${column.sql} = ?)`
}

function membership(column: FilterColumn, values: unknown, path: string, params: unknown[]): string {
  if (!Array.isArray(values) || values.length === 0) throw operandProblem(path, 'a non-empty array', values)
  if (values.length > filterLimits.maxInValues) throw invalidQuery(`${path}: at most ${filterLimits.maxInValues} values, received ${values.length}`)
  const hasNull = values.includes(null)
  const present = values.filter((v) => v !== null)
  const parts: string[] = []
  if (present.length > 0) {
    const marks = present.map(() => '?').join(', ')
    if (column.kind === 'array') {
      present.forEach((v, i) => params.push(encodeElement(v, `${path}.${i}`)))
      parts.push(`(${column.sql} IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(${column.sql}) WHERE json_each.value IN (${marks})))`)
    } else {
      present.forEach((v, i) => params.push(encodeOperand(column, v, `${path}.${i}`)))
      parts.push(`(${column.sql} IS NOT NULL AND ${column.sql} IN (${marks}))`)
    }
  }
  if (hasNull) parts.push(`(${column.sql} IS NULL)`)
  return parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`
}

const COMPARISONS = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const
const ORDERED_KINDS = orderedKinds

function compileCondition(column: FilterColumn, condition: Record<string, unknown>, path: string, params: unknown[], depth = 0): string {
  if (depth > filterLimits.maxDepth) throw invalidQuery(`${path}: conditions nest at most ${filterLimits.maxDepth} levels deep`)
  const keys = Object.keys(condition)
  if (keys.length === 0) throw invalidQuery(`${path}: empty condition; give a value or at least one operator`)
  const parts: string[] = []
  for (const op of keys) {
    const operand = condition[op]
    const opPath = `${path}.${op}`
    if (!op.startsWith('$')) throw invalidQuery(`${path}: cannot mix operators and plain keys ("${op}")`)
    if (!KNOWN_OPERATORS.has(op)) throw invalidQuery(`${opPath}: unknown operator "${op}"`)
    switch (op) {
      case '$eq':
        parts.push(equality(column, operand, opPath, params))
        break
      case '$ne':
        parts.push(`(NOT ${equality(column, operand, opPath, params)})`)
        break
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        if (!ORDERED_KINDS.has(column.kind)) throw invalidQuery(`${opPath}: "${op}" does not apply to a ${column.kind} column`)
        params.push(encodeOperand(column, operand, opPath))
        parts.push(`(${column.sql} IS NOT NULL AND ${column.sql} ${COMPARISONS[op]} ?)`)
        break
      case '$in':
        parts.push(membership(column, operand, opPath, params))
        break
      case '$nin':
        parts.push(`(NOT ${membership(column, operand, opPath, params)})`)
        break
      case '$exists':
        if (typeof operand !== 'boolean') throw operandProblem(opPath, 'a boolean', operand)
        parts.push(operand ? `(${column.sql} IS NOT NULL)` : `(${column.sql} IS NULL)`)
        break
      case '$mod': {
        if (column.kind !== 'number') throw invalidQuery(`${opPath}: "$mod" applies to number columns, not ${column.kind}`)
        if (!Array.isArray(operand) || operand.length !== 2 || !operand.every((n) => Number.isInteger(n))) {
          throw operandProblem(opPath, '[divisor, remainder] (two integers)', operand)
        }
        if (operand[0] === 0) throw invalidQuery(`${opPath}: divisor must not be 0`)
        params.push(operand[0], operand[1])
        parts.push(`(${column.sql} IS NOT NULL AND (CAST(${column.sql} AS INTEGER) % ?) = ?)`)
        break
      }
      case '$size':
        if (column.kind !== 'array') throw invalidQuery(`${opPath}: "$size" applies to array columns, not ${column.kind}`)
        if (!Number.isInteger(operand) || (operand as number) < 0) throw operandProblem(opPath, 'a non-negative integer', operand)
        params.push(operand)
        parts.push(`(${column.sql} IS NOT NULL AND json_array_length(${column.sql}) = ?)`)
        break
      case '$regex': {
        if (column.kind !== 'string' && column.kind !== 'date') throw invalidQuery(`${opPath}: "$regex" applies to string columns, not ${column.kind}`)
        const { pattern, flags } = checkRegex(operand, condition['$options'], path)
        params.push(pattern, flags)
        parts.push(`(${column.sql} IS NOT NULL AND ${REGEXP_FUNCTION}(?, ?, ${column.sql}) = 1)`)
        break
      }
      case '$options':
        if (!('$regex' in condition)) throw invalidQuery(`${opPath}: "$options" needs a sibling "$regex"`)
        break
      case '$not':
        if (!isPlainObject(operand)) throw operandProblem(opPath, 'an operator object', operand)
        parts.push(`(NOT ${compileCondition(column, operand, opPath, params, depth + 1)})`)
        break
    }
  }
  return parts.length === 1 ? parts[0]! : `(${parts.join(' AND ')})`
}

function isOperatorObject(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value)
  return keys.length > 0 && keys.every((k) => k.startsWith('$'))
}

function compileInto(filter: unknown, resolve: ColumnResolver, path: string, params: unknown[], depth = 0): string {
  if (!isPlainObject(filter)) throw operandProblem(path, 'an object', filter)
  if (depth > filterLimits.maxDepth) throw invalidQuery(`${path}: filters nest at most ${filterLimits.maxDepth} levels deep`)
  const parts: string[] = []
  for (const [key, value] of Object.entries(filter)) {
    const keyPath = `${path}.${key}`
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value) || value.length === 0) throw operandProblem(keyPath, 'a non-empty array of filters', value)
      const inner = value.map((f, i) => compileInto(f, resolve, `${keyPath}.${i}`, params, depth + 1))
      parts.push(inner.length === 1 ? inner[0]! : `(${inner.join(key === '$and' ? ' AND ' : ' OR ')})`)
      continue
    }
    if (key === '$not') {
      if (!isPlainObject(value)) throw operandProblem(keyPath, 'a filter object', value)
      parts.push(`(NOT ${compileInto(value, resolve, keyPath, params, depth + 1)})`)
      continue
    }
    if (key.startsWith('$')) throw invalidQuery(`${keyPath}: unknown operator "${key}"`)
    const column = resolve(key, keyPath)
    if (!column) throw invalidQuery(`${keyPath}: unknown column "${key}"`)
    if (column.kind === 'nested') {
      parts.push(compileNested(column, value, keyPath, params))
      continue
    }
    if (isPlainObject(value) && isOperatorObject(value)) parts.push(compileCondition(column, value, keyPath, params))
    else if (isPlainObject(value) && Object.keys(value).length === 0 && column.kind !== 'object') {
      throw invalidQuery(`${keyPath}: empty condition; give a value or at least one operator`)
    } else parts.push(equality(column, value, keyPath, params))
  }
  if (parts.length === 0) return '1'
  return parts.length === 1 ? parts[0]! : `(${parts.join(' AND ')})`
}

/**
 * Compiles a row filter (wire reference §8) to a parameterized SQL boolean expression that is never
 * NULL (so `NOT` means what it says for missing values). Unknown operators and columns, and operands
 * of the wrong type for the column, are refused with `InvalidQuery` naming the path.
 *
 * @example
 * ```ts
 * compileFilter({ age: { $gte: 18 }, $or: [{ name: 'Ada' }, { name: { $exists: false } }] }, resolve)
 * // { sql: '((c2 IS NOT NULL AND c2 >= ?) AND ((c1 IS NOT NULL AND c1 = ?) OR (c1 IS NULL)))', params: [18, 'Ada'] }
 * ```
 */
export function compileFilter(filter: unknown, resolve: ColumnResolver, path = 'filter'): CompiledSql {
  const params: unknown[] = []
  const sql = compileInto(filter, resolve, path, params)
  if (params.length > filterLimits.maxParams) throw invalidQuery(`${path}: too large (${params.length} values; at most ${filterLimits.maxParams})`)
  return { sql, params }
}
