import { fuseByReciprocalRank, keepLexicalTop, RRF_K } from '../../../search/ranking/index.js'

/** How many vector candidates a hybrid table search takes, and the least depth of its lexical list. */
export const TABLE_SEARCH_CANDIDATES = 100

/** The best fused score there is: first in both lists. `similarity` is a fused score divided by it. */
const BEST_SCORE = 2 / (RRF_K + 1)

/** One row of a hybrid ranking, best first. */
export interface RankedRow {
  id: number
  /** The fused score divided by the best possible one: in (0, 1], higher is closer, descending along the ranking. */
  similarity: number
}

/**
 * Fuses the lexical ranking (full-text matches, best first) and the vector ranking (nearest rows, best first) of a
 * table search with the project's one fusion (`fuseByReciprocalRank`, `RRF_K`, equal weights) and keeps the best
 * lexical match in the top three (`keepLexicalTop`), as file search does. A row found by one list only keeps its
 * place: rows not yet embedded still match by their words. `similarity` is the fused score over the best possible
 * one (first in both lists), so it lies in (0, 1] and never increases down the ranking (decision 0860).
 *
 * @example
 * ```ts
 * rankTableSearch([3, 1], [1, 7])
 * // [{ id: 1, similarity: 0.917 }, { id: 3, similarity: 0.5 }, { id: 7, similarity: 0.429 }]
 * ```
 */
export function rankTableSearch(lexical: readonly number[], vector: readonly number[]): RankedRow[] {
  const fused = fuseByReciprocalRank([lexical.map(String), vector.map(String)], { k: RRF_K })
  const kept = keepLexicalTop(
    fused.map(({ id, score }) => ({ id, score })),
    lexical.length > 0 ? String(lexical[0]) : undefined,
  )
  return kept.map(({ id, score }) => ({ id: Number(id), similarity: Math.min(1, score / BEST_SCORE) }))
}
