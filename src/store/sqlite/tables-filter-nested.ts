import { describeValue } from '../../issues/index.js'
import { invalidQuery } from '../tables/errors.js'
import { checkRegex, REGEXP_FUNCTION } from './tables-regex.js'

/** A value inside an object column reached by a dot path: `json_extract` and `json_type` SQL of it. */
export interface NestedFilterColumn {
  sql: string
  kind: 'nested'
  typeSql: string
}

const SEGMENT = /^[^"\\\u0000-\u001f]+$/

/**
 * The SQL of a dot path into an object column (`attributes.price` → `json_extract(t.c4, '$."price"')`).
 * Segments may not hold `"`, `\` or control characters. The path is a SQL string literal (quotes doubled),
 * never user SQL.
 *
 * @example
 * ```ts
 * nestedColumn('t."c4"', ['price']) // { sql: `json_extract(t."c4", '$."price"')`, kind: 'nested', typeSql: ... }
 * ```
 */
export function nestedColumn(columnSql: string, segments: readonly string[], path: string): NestedFilterColumn {
  for (const segment of segments) {
    if (!SEGMENT.test(segment)) throw invalidQuery(`${path}: invalid path segment ${JSON.stringify(segment)}`)
  }
  const jsonPath = `$${segments.map((s) => `."${s}"`).join('')}`
  const literal = `'${jsonPath.replaceAll("'", "''")}'`
  return { sql: `json_extract(${columnSql}, ${literal})`, kind: 'nested', typeSql: `COALESCE(json_type(${columnSql}, ${literal}), '')` }
}

function typeGuard(column: NestedFilterColumn, value: unknown, path: string): string {
  if (typeof value === 'string') return `${column.typeSql} = 'text'`
  if (typeof value === 'number' && Number.isFinite(value)) return `${column.typeSql} IN ('integer', 'real')`
  throw invalidQuery(`${path}: expected a string or a number, received ${describeValue(value)}`)
}

function nestedEquality(column: NestedFilterColumn, value: unknown, path: string, params: unknown[]): string {
  if (value === null) return `(${column.sql} IS NULL)`
  if (typeof value === 'boolean') return `(${column.typeSql} = '${value ? 'true' : 'false'}')`
  const guard = typeGuard(column, value, path)
  params.push(value)
  return `(${guard} AND ${column.sql} = ?)`
}

function nestedMembership(column: NestedFilterColumn, values: unknown, path: string, params: unknown[]): string {
  if (!Array.isArray(values) || values.length === 0) throw invalidQuery(`${path}: expected a non-empty array, received ${describeValue(values)}`)
  if (values.length > 1000) throw invalidQuery(`${path}: at most 1000 values, received ${values.length}`)
  return `(${values.map((v, i) => nestedEquality(column, v, `${path}.${i}`, params)).join(' OR ')})`
}

const COMPARISONS = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const

/**
 * Compiles a condition on a nested value (bare value or operator object). Values are compared only with
 * operands of the same JSON type (MongoDB's type bracketing); a missing value and JSON `null` are the same;
 * arrays are not matched element-wise at nested paths.
 *
 * @example
 * ```ts
 * compileNested(nestedColumn('t."c4"', ['price'], 'filter.attributes.price'), { $gte: 10 }, 'filter.attributes.price', params)
 * ```
 */
export function compileNested(column: NestedFilterColumn, condition: unknown, path: string, params: unknown[]): string {
  const isObject = typeof condition === 'object' && condition !== null && !Array.isArray(condition)
  if (!isObject) return nestedEquality(column, condition, path, params)
  const entries = Object.entries(condition as Record<string, unknown>)
  if (entries.length === 0 || !entries.every(([k]) => k.startsWith('$'))) {
    throw invalidQuery(`${path}: nested paths compare scalar values; give a value or operators`)
  }
  const parts: string[] = []
  for (const [op, operand] of entries) {
    const opPath = `${path}.${op}`
    switch (op) {
      case '$eq':
        parts.push(nestedEquality(column, operand, opPath, params))
        break
      case '$ne':
        parts.push(`(NOT ${nestedEquality(column, operand, opPath, params)})`)
        break
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte': {
        const guard = typeGuard(column, operand, opPath)
        params.push(operand)
        parts.push(`(${guard} AND ${column.sql} ${COMPARISONS[op]} ?)`)
        break
      }
      case '$in':
        parts.push(nestedMembership(column, operand, opPath, params))
        break
      case '$nin':
        parts.push(`(NOT ${nestedMembership(column, operand, opPath, params)})`)
        break
      case '$exists':
        if (typeof operand !== 'boolean') throw invalidQuery(`${opPath}: expected a boolean, received ${describeValue(operand)}`)
        parts.push(operand ? `(${column.sql} IS NOT NULL)` : `(${column.sql} IS NULL)`)
        break
      case '$mod':
        if (!Array.isArray(operand) || operand.length !== 2 || !operand.every((n) => Number.isInteger(n)) || operand[0] === 0) {
          throw invalidQuery(`${opPath}: expected [divisor, remainder] (two integers, divisor not 0), received ${describeValue(operand)}`)
        }
        params.push(operand[0], operand[1])
        parts.push(`(${column.typeSql} IN ('integer', 'real') AND (CAST(${column.sql} AS INTEGER) % ?) = ?)`)
        break
      case '$size':
        if (!Number.isInteger(operand) || (operand as number) < 0) throw invalidQuery(`${opPath}: expected a non-negative integer, received ${describeValue(operand)}`)
        params.push(operand)
        parts.push(`(${column.typeSql} = 'array' AND json_array_length(${column.sql}) = ?)`)
        break
      case '$regex': {
        const { pattern, flags } = checkRegex(operand, (condition as Record<string, unknown>)['$options'], path)
        params.push(pattern, flags)
        parts.push(`(${column.typeSql} = 'text' AND ${REGEXP_FUNCTION}(?, ?, ${column.sql}) = 1)`)
        break
      }
      case '$options':
        if (!('$regex' in (condition as object))) throw invalidQuery(`${opPath}: "$options" needs a sibling "$regex"`)
        break
      case '$not':
        parts.push(`(NOT ${compileNested(column, operand, opPath, params)})`)
        break
      default:
        throw invalidQuery(`${opPath}: unknown operator "${op}"`)
    }
  }
  return parts.length === 1 ? parts[0]! : `(${parts.join(' AND ')})`
}
