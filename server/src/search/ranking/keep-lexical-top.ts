/** How high the best lexical match always ranks in a hybrid result (see {@link keepLexicalTop}). */
export const LEXICAL_TOP_RANK = 3

/**
 * Keeps the best lexical match among the first {@link LEXICAL_TOP_RANK} results: a passage holding an exact rare
 * term must not be buried under passages that are merely close in vector space. When fusion ranked it lower, it
 * moves up to that rank and takes the score of the result it overtakes, so scores stay in descending order.
 *
 * @example
 * ```ts
 * keepLexicalTop(fused, 'p7') // p7 now among the first three
 * ```
 */
export function keepLexicalTop(fused: Array<{ id: string; score: number }>, lexicalTop: string | undefined): Array<{ id: string; score: number }> {
  if (lexicalTop === undefined) return fused
  const at = fused.findIndex((entry) => entry.id === lexicalTop)
  const target = Math.min(LEXICAL_TOP_RANK, fused.length) - 1
  if (at <= target) return fused
  const result = fused.slice()
  const [moved] = result.splice(at, 1)
  result.splice(target, 0, { id: moved!.id, score: result[target]!.score })
  return result
}
