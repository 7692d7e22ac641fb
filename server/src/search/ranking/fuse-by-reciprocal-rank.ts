/**
 * Options of `fuseByReciprocalRank`.
 *
 * @example
 * ```ts
 * const options: FuseOptions = { k: 5, weights: [1, 1] }
 * ```
 */
export interface FuseOptions {
  /**
   * The rank constant: a document at rank r (1-based) of a list scores `weight / (k + r)`. Larger k flattens the
   * difference between the top ranks. Default `RRF_K` (5), chosen on the labelled question set, e.g. `{ k: 60 }`.
   */
  k?: number
  /**
   * One weight per list (default 1 each), e.g. `{ weights: [1.2, 1] }` to favour the lexical list. Keep them equal
   * for lexical + vector: then a passage ranked first by BM25 can only be overtaken by one both lists found, so an
   * exact rare-term match is never buried by vectors (measured in bench/search, decision 0812).
   */
  weights?: readonly number[]
  /** Keep only the best `limit` documents, e.g. `{ limit: 10 }`. */
  limit?: number
}

/** One fused result: the document id, its fused score, and its 1-based rank in each input list (absent: not there). */
export interface FusedResult<Id> {
  id: Id
  score: number
  ranks: (number | undefined)[]
}

/**
 * The rank constant of reciprocal rank fusion used by botshelf's hybrid search, chosen by measurement on the
 * labelled question set (`npm run bench:quality -- --sweep`, decision 0812): nDCG@10 falls steadily from k = 1 to
 * k = 60 there, and 5 is the largest k within 0.02 of the best.
 *
 * @example
 * ```ts
 * fuseByReciprocalRank([lexicalIds, vectorIds], { k: RRF_K })
 * ```
 */
export const RRF_K = 5

/**
 * Reciprocal rank fusion (Cormack, Clarke and Büttcher, 2009): merges ranked lists of ids into one, scoring each id
 * by the sum over lists of `weight / (k + rank)`. Only ranks count, so lists whose scores are not comparable (BM25,
 * cosine) fuse without calibration. Ties keep the order of first appearance (list by list, rank by rank), so the
 * result is deterministic. An id repeated inside one list counts at its best rank.
 *
 * @example
 * ```ts
 * fuseByReciprocalRank([['a', 'b', 'c'], ['c', 'a']], { k: 60 }).map((r) => r.id) // ['a', 'c', 'b']
 * ```
 */
export function fuseByReciprocalRank<Id>(lists: readonly (readonly Id[])[], options: FuseOptions = {}): FusedResult<Id>[] {
  const k = options.k ?? RRF_K
  if (!Number.isFinite(k) || k < 0) throw new RangeError(`k: expected a finite number ≥ 0, received ${k}`)
  if (options.weights && options.weights.length !== lists.length) {
    throw new RangeError(`weights: expected ${lists.length} weights (one per list), received ${options.weights.length}`)
  }
  const fused = new Map<Id, FusedResult<Id> & { first: number }>()
  let order = 0
  lists.forEach((list, listIndex) => {
    const weight = options.weights?.[listIndex] ?? 1
    list.forEach((id, position) => {
      let entry = fused.get(id)
      if (!entry) {
        entry = { id, score: 0, ranks: new Array<number | undefined>(lists.length).fill(undefined), first: order++ }
        fused.set(id, entry)
      }
      if (entry.ranks[listIndex] !== undefined) return
      entry.ranks[listIndex] = position + 1
      entry.score += weight / (k + position + 1)
    })
  })
  const sorted = [...fused.values()].sort((a, b) => b.score - a.score || a.first - b.first)
  return sorted.slice(0, options.limit ?? sorted.length).map(({ id, score, ranks }) => ({ id, score, ranks }))
}
