import { describeValue } from 'botshelf/api'
import { invalidQuery, MAX_QUERY_INTEGER } from '../errors.js'
import type { ComparisonOperator, FilterNode, PathTarget } from './ast.js'
import { filterLimits } from './limits.js'
import { allOf, anyOf } from './parse-condition.js'
import { isPlainObject, pathOperand } from './operands.js'
import { checkRegex } from './regex-operand.js'

const COMPARISONS: Readonly<Record<string, ComparisonOperator>> = { $gt: 'gt', $gte: 'gte', $lt: 'lt', $lte: 'lte' }

function pathEquality(target: PathTarget, value: unknown, path: string): FilterNode {
  if (value === null) return { type: 'exists', target, exists: false }
  if (typeof value === 'boolean') return { type: 'compare', target, op: 'eq', operand: { type: 'boolean', value } }
  return { type: 'compare', target, op: 'eq', operand: pathOperand(value, path) }
}

function pathMembership(target: PathTarget, values: unknown, path: string): FilterNode {
  if (!Array.isArray(values) || values.length === 0) throw invalidQuery(`${path}: expected a non-empty array, received ${describeValue(values)}`)
  if (values.length > filterLimits.maxInValues) throw invalidQuery(`${path}: at most ${filterLimits.maxInValues} values, received ${values.length}`)
  return anyOf(values.map((v, i) => pathEquality(target, v, `${path}.${i}`)))
}

/**
 * Parses a condition on a value inside an object column (a bare value or an operator object). Values are
 * compared only with operands of the same JSON type (MongoDB's type bracketing); a missing value and JSON
 * `null` are the same; arrays are not matched element-wise at nested paths. `$not` nests at most 16 levels.
 *
 * @example
 * ```ts
 * parsePathCondition({ type: 'path', column: 'attributes', path: ['price'] }, { $gte: 10 }, 'filter.attributes.price')
 * // { type: 'compare', target, op: 'gte', operand: { type: 'number', value: 10 } }
 * ```
 */
export function parsePathCondition(target: PathTarget, condition: unknown, path: string, depth = 0): FilterNode {
  if (depth > filterLimits.maxDepth) throw invalidQuery(`${path}: conditions nest at most ${filterLimits.maxDepth} levels deep`)
  if (!isPlainObject(condition)) return pathEquality(target, condition, path)
  const entries = Object.entries(condition)
  if (entries.length === 0 || !entries.every(([k]) => k.startsWith('$'))) {
    throw invalidQuery(`${path}: nested paths compare scalar values; give a value or operators`)
  }
  const nodes: FilterNode[] = []
  for (const [op, operand] of entries) {
    const opPath = `${path}.${op}`
    switch (op) {
      case '$eq':
        nodes.push(pathEquality(target, operand, opPath))
        break
      case '$ne':
        nodes.push({ type: 'not', node: pathEquality(target, operand, opPath) })
        break
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        nodes.push({ type: 'compare', target, op: COMPARISONS[op]!, operand: pathOperand(operand, opPath) })
        break
      case '$in':
        nodes.push(pathMembership(target, operand, opPath))
        break
      case '$nin':
        nodes.push({ type: 'not', node: pathMembership(target, operand, opPath) })
        break
      case '$exists':
        if (typeof operand !== 'boolean') throw invalidQuery(`${opPath}: expected a boolean, received ${describeValue(operand)}`)
        nodes.push({ type: 'exists', target, exists: operand })
        break
      case '$mod':
        if (!Array.isArray(operand) || operand.length !== 2 || !operand.every((n) => Number.isInteger(n)) || operand[0] === 0) {
          throw invalidQuery(`${opPath}: expected [divisor, remainder] (two integers, divisor not 0), received ${describeValue(operand)}`)
        }
        nodes.push({ type: 'mod', target, divisor: operand[0] as number, remainder: operand[1] as number })
        break
      case '$size':
        if (!Number.isInteger(operand) || (operand as number) < 0 || (operand as number) > MAX_QUERY_INTEGER) throw invalidQuery(`${opPath}: expected an integer from 0 to ${MAX_QUERY_INTEGER}, received ${describeValue(operand)}`)
        nodes.push({ type: 'size', target, size: operand as number })
        break
      case '$regex':
        nodes.push({ type: 'regex', target, ...checkRegex(operand, condition['$options'], path) })
        break
      case '$options':
        if (!Object.hasOwn(condition, '$regex')) throw invalidQuery(`${opPath}: "$options" needs a sibling "$regex"`)
        break
      case '$not':
        nodes.push({ type: 'not', node: parsePathCondition(target, operand, opPath, depth + 1) })
        break
      default:
        throw invalidQuery(`${opPath}: unknown operator "${op}"`)
    }
  }
  return allOf(nodes)
}
