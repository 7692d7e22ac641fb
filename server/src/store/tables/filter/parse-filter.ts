import { invalidQuery } from '../errors.js'
import type { FilterNode } from './ast.js'
import { countFilterTerms, countFilterValues, filterLimits } from './limits.js'
import { isPlainObject, operandProblem } from './operands.js'
import { allOf, parseCondition, parseEquality } from './parse-condition.js'
import { parsePathCondition } from './parse-path-condition.js'
import { compileFilterRegexes } from './regex-operand.js'
import { resolveTarget, type ColumnKindLookup } from './targets.js'

function isOperatorObject(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value)
  return keys.length > 0 && keys.every((k) => k.startsWith('$'))
}

function parseColumnKey(kindOf: ColumnKindLookup, key: string, value: unknown, keyPath: string): FilterNode {
  const target = resolveTarget(kindOf, key, keyPath)
  if (!target) throw invalidQuery(`${keyPath}: unknown column "${key}"`)
  if (target.type === 'path') return parsePathCondition(target, value, keyPath)
  if (isPlainObject(value) && isOperatorObject(value)) return parseCondition(target, value, keyPath)
  if (isPlainObject(value) && Object.keys(value).length === 0 && target.kind !== 'object') {
    throw invalidQuery(`${keyPath}: empty condition; give a value or at least one operator`)
  }
  return parseEquality(target, value, keyPath)
}

function parseNode(filter: unknown, kindOf: ColumnKindLookup, path: string, depth: number): FilterNode {
  if (!isPlainObject(filter)) throw operandProblem(path, 'an object', filter)
  if (depth > filterLimits.maxDepth) throw invalidQuery(`${path}: filters nest at most ${filterLimits.maxDepth} levels deep`)
  const nodes: FilterNode[] = []
  for (const [key, value] of Object.entries(filter)) {
    const keyPath = `${path}.${key}`
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value) || value.length === 0) throw operandProblem(keyPath, 'a non-empty array of filters', value)
      const inner = value.map((f, i) => parseNode(f, kindOf, `${keyPath}.${i}`, depth + 1))
      nodes.push(inner.length === 1 ? inner[0]! : { type: key === '$and' ? 'and' : 'or', nodes: inner })
    } else if (key === '$not') {
      if (!isPlainObject(value)) throw operandProblem(keyPath, 'a filter object', value)
      nodes.push({ type: 'not', node: parseNode(value, kindOf, keyPath, depth + 1) })
    } else if (key.startsWith('$')) {
      throw invalidQuery(`${keyPath}: unknown operator "${key}"`)
    } else {
      nodes.push(parseColumnKey(kindOf, key, value, keyPath))
    }
  }
  return nodes.length === 0 ? { type: 'all' } : allOf(nodes)
}

/**
 * Validates a row filter (docs/decisions/0405-filter-semantics.md, `RowFilter` in src/api/tables/filter.ts)
 * against a table's columns and turns it into a `FilterNode`. Everything is checked here, before any query
 * is built: unknown columns and operators, operators that do not apply to the column, operands of the wrong
 * type, regex syntax and flags, nesting (16 levels), `$in` lists (1000 values) and the whole filter (5000
 * values, 1000 terms: conditions and the operators combining them), and `$regex` patterns (RE2 syntax, 1000
 * compiled instructions for all of them; `compileFilterRegexes`). Errors are `InvalidQuery` naming the path (`filter.$or.1.age.$gt: expected a number, received "5"`).
 *
 * @example
 * ```ts
 * parseFilter({ age: { $gte: 18 }, $or: [{ name: 'Ada' }, { name: { $exists: false } }] }, queryColumns(columns))
 * // { type: 'and', nodes: [
 * //   { type: 'compare', target: { type: 'column', column: 'age', kind: 'number' }, op: 'gte', operand: { type: 'number', value: 18 } },
 * //   { type: 'or', nodes: [ { type: 'compare', ..., op: 'eq', ... }, { type: 'exists', ..., exists: false } ] },
 * // ] }
 * ```
 */
export function parseFilter(filter: unknown, kindOf: ColumnKindLookup, path = 'filter'): FilterNode {
  const node = parseNode(filter, kindOf, path, 0)
  const values = countFilterValues(node)
  if (values > filterLimits.maxValues) throw invalidQuery(`${path}: too large (${values} values; at most ${filterLimits.maxValues})`)
  const terms = countFilterTerms(node)
  if (terms > filterLimits.maxTerms) {
    throw invalidQuery(`${path}: too large (${terms} conditions and operators; at most ${filterLimits.maxTerms}); use $in for many values of one column`)
  }
  compileFilterRegexes(node)
  return node
}
