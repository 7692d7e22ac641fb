import { filterOperators } from 'botshelf/api'
import { orderedKinds } from '../column-kinds.js'
import { invalidQuery, MAX_QUERY_INTEGER } from '../errors.js'
import type { ColumnTarget, ComparisonOperator, FilterNode } from './ast.js'
import { filterLimits } from './limits.js'
import { columnOperand, elementOperand, isElementValue, isPlainObject, operandProblem } from './operands.js'
import { checkRegex } from './regex-operand.js'

const KNOWN_OPERATORS: ReadonlySet<string> = new Set(filterOperators)

const COMPARISONS: Readonly<Record<string, ComparisonOperator>> = { $gt: 'gt', $gte: 'gte', $lt: 'lt', $lte: 'lte' }

/**
 * Several conditions on one target: the node itself when there is one, their AND otherwise.
 *
 * @example
 * ```ts
 * allOf([a]) // a
 * allOf([a, b]) // { type: 'and', nodes: [a, b] }
 * ```
 */
export function allOf(nodes: FilterNode[]): FilterNode {
  return nodes.length === 1 ? nodes[0]! : { type: 'and', nodes }
}

/**
 * Several alternatives: the node itself when there is one, their OR otherwise.
 *
 * @example
 * ```ts
 * anyOf([a, b]) // { type: 'or', nodes: [a, b] }
 * ```
 */
export function anyOf(nodes: FilterNode[]): FilterNode {
  return nodes.length === 1 ? nodes[0]! : { type: 'or', nodes }
}

/**
 * Equality with a bare value or `$eq`: `null` means "no value"; a scalar on an array column looks for an element.
 *
 * @example
 * ```ts
 * parseEquality({ type: 'column', column: 'tags', kind: 'array' }, 'x', 'filter.tags') // { type: 'contains', ... }
 * ```
 */
export function parseEquality(target: ColumnTarget, value: unknown, path: string): FilterNode {
  if (value === null) return { type: 'exists', target, exists: false }
  if (target.kind === 'array' && isElementValue(value)) return { type: 'contains', target, operands: [elementOperand(value, path)] }
  return { type: 'compare', target, op: 'eq', operand: columnOperand(target.kind, value, path) }
}

function parseMembership(target: ColumnTarget, values: unknown, path: string): FilterNode {
  if (!Array.isArray(values) || values.length === 0) throw operandProblem(path, 'a non-empty array', values)
  if (values.length > filterLimits.maxInValues) throw invalidQuery(`${path}: at most ${filterLimits.maxInValues} values, received ${values.length}`)
  const present = values.filter((v) => v !== null)
  const alternatives: FilterNode[] = []
  if (present.length > 0) {
    // Paths number the non-null values, as they always have.
    alternatives.push(
      target.kind === 'array'
        ? { type: 'contains', target, operands: present.map((v, i) => elementOperand(v, `${path}.${i}`)) }
        : { type: 'in', target, operands: present.map((v, i) => columnOperand(target.kind, v, `${path}.${i}`)) },
    )
  }
  if (present.length < values.length) alternatives.push({ type: 'exists', target, exists: false })
  return anyOf(alternatives)
}

function parseMod(target: ColumnTarget, operand: unknown, path: string): FilterNode {
  if (target.kind !== 'number') throw invalidQuery(`${path}: "$mod" applies to number columns, not ${target.kind}`)
  if (!Array.isArray(operand) || operand.length !== 2 || !operand.every((n) => Number.isInteger(n))) {
    throw operandProblem(path, '[divisor, remainder] (two integers)', operand)
  }
  if (operand[0] === 0) throw invalidQuery(`${path}: divisor must not be 0`)
  return { type: 'mod', target, divisor: operand[0] as number, remainder: operand[1] as number }
}

function parseSize(target: ColumnTarget, operand: unknown, path: string): FilterNode {
  if (target.kind !== 'array') throw invalidQuery(`${path}: "$size" applies to array columns, not ${target.kind}`)
  if (!Number.isInteger(operand) || (operand as number) < 0 || (operand as number) > MAX_QUERY_INTEGER) throw operandProblem(path, `an integer from 0 to ${MAX_QUERY_INTEGER}`, operand)
  return { type: 'size', target, size: operand as number }
}

/**
 * Parses an operator object on a column (`{ $gte: 18, $lt: 65 }`): its operators are ANDed, in order. Each
 * operator must apply to the column's kind and each operand must have its type; `path` names the condition in
 * errors (`filter.age`). `$not` nests conditions at most 16 levels deep.
 *
 * @example
 * ```ts
 * parseCondition({ type: 'column', column: 'age', kind: 'number' }, { $gte: 18 }, 'filter.age')
 * // { type: 'compare', target, op: 'gte', operand: { type: 'number', value: 18 } }
 * ```
 */
export function parseCondition(target: ColumnTarget, condition: Record<string, unknown>, path: string, depth = 0): FilterNode {
  if (depth > filterLimits.maxDepth) throw invalidQuery(`${path}: conditions nest at most ${filterLimits.maxDepth} levels deep`)
  const keys = Object.keys(condition)
  if (keys.length === 0) throw invalidQuery(`${path}: empty condition; give a value or at least one operator`)
  const nodes: FilterNode[] = []
  for (const op of keys) {
    const operand = condition[op]
    const opPath = `${path}.${op}`
    if (!op.startsWith('$')) throw invalidQuery(`${path}: cannot mix operators and plain keys ("${op}")`)
    if (!KNOWN_OPERATORS.has(op)) throw invalidQuery(`${opPath}: unknown operator "${op}"`)
    switch (op) {
      case '$eq':
        nodes.push(parseEquality(target, operand, opPath))
        break
      case '$ne':
        nodes.push({ type: 'not', node: parseEquality(target, operand, opPath) })
        break
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        if (!orderedKinds.has(target.kind)) throw invalidQuery(`${opPath}: "${op}" does not apply to a ${target.kind} column`)
        nodes.push({ type: 'compare', target, op: COMPARISONS[op]!, operand: columnOperand(target.kind, operand, opPath) })
        break
      case '$in':
        nodes.push(parseMembership(target, operand, opPath))
        break
      case '$nin':
        nodes.push({ type: 'not', node: parseMembership(target, operand, opPath) })
        break
      case '$exists':
        if (typeof operand !== 'boolean') throw operandProblem(opPath, 'a boolean', operand)
        nodes.push({ type: 'exists', target, exists: operand })
        break
      case '$mod':
        nodes.push(parseMod(target, operand, opPath))
        break
      case '$size':
        nodes.push(parseSize(target, operand, opPath))
        break
      case '$regex': {
        if (target.kind !== 'string' && target.kind !== 'date') throw invalidQuery(`${opPath}: "$regex" applies to string columns, not ${target.kind}`)
        nodes.push({ type: 'regex', target, ...checkRegex(operand, condition['$options'], path) })
        break
      }
      case '$options':
        if (!Object.hasOwn(condition, '$regex')) throw invalidQuery(`${opPath}: "$options" needs a sibling "$regex"`)
        break
      case '$not':
        if (!isPlainObject(operand)) throw operandProblem(opPath, 'an operator object', operand)
        nodes.push({ type: 'not', node: parseCondition(target, operand, opPath, depth + 1) })
        break
    }
  }
  return allOf(nodes)
}
