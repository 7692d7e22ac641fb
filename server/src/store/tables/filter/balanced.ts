/**
 * Joins SQL terms with AND or OR as a balanced tree of parentheses, so the expression is O(log n) deep and a long
 * `$or` stays far below the engines' depth limits (SQLite's expression depth of 1000, PostgreSQL's stack depth),
 * where a flat chain of n terms is n deep. Both adapters' filter compilers use it.
 *
 * @example
 * ```ts
 * balanced(['a = 1', 'b = 2', 'c = 3'], ' OR ') // "(a = 1 OR (b = 2 OR c = 3))"
 * ```
 */
export function balanced(terms: readonly string[], operator: ' AND ' | ' OR '): string {
  if (terms.length === 1) return terms[0]!
  const half = terms.length >> 1
  return `(${balanced(terms.slice(0, half), operator)}${operator}${balanced(terms.slice(half), operator)})`
}
