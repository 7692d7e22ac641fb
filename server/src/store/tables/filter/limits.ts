import type { FilterNode } from './ast.js'

/**
 * Bounds that keep a filter far from database limits (bound values, expression depth) and the JS stack:
 * nesting of filters and of conditions, values of one `$in`, values of the whole filter, and its terms (the
 * conditions and the `$and`, `$or`, `$not` combining them; docs/decisions/0701-input-bounds.md).
 *
 * @example
 * ```ts
 * if (values.length > filterLimits.maxInValues) throw invalidQuery('too many values')
 * ```
 */
export const filterLimits = { maxDepth: 16, maxInValues: 1000, maxValues: 5000, maxTerms: 1000 } as const

/**
 * How many terms a filter has: every node of its tree (conditions, and the `and`, `or`, `not` combining them),
 * `{}` having none. The tree nests at most `filterLimits.maxDepth` levels, so the walk stays shallow.
 *
 * @example
 * ```ts
 * countFilterTerms({ type: 'or', nodes: [a, b, c] }) // 4
 * ```
 */
export function countFilterTerms(node: FilterNode): number {
  switch (node.type) {
    case 'all':
      return 0
    case 'and':
    case 'or':
      return node.nodes.reduce((sum, n) => sum + countFilterTerms(n), 1)
    case 'not':
      return 1 + countFilterTerms(node.node)
    default:
      return 1
  }
}

/**
 * How many values a filter binds in a query: one per operand, two for `$mod` (divisor and remainder), three for
 * `$regex` (pattern, flags and the path errors name), none for `$exists`; a boolean at a path is matched by its
 * JSON type alone.
 *
 * @example
 * ```ts
 * countFilterValues({ type: 'in', target, operands: [a, b, c] }) // 3
 * ```
 */
export function countFilterValues(node: FilterNode): number {
  switch (node.type) {
    case 'all':
    case 'exists':
      return 0
    case 'and':
    case 'or':
      return node.nodes.reduce((sum, n) => sum + countFilterValues(n), 0)
    case 'not':
      return countFilterValues(node.node)
    case 'compare':
      return node.target.type === 'path' && node.operand.type === 'boolean' ? 0 : 1
    case 'in':
    case 'contains':
      return node.operands.length
    case 'mod':
      return 2
    case 'regex':
      return 3
    case 'size':
      return 1
  }
}
