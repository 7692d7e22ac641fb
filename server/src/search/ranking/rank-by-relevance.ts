import { FULL_COVERAGE, relevanceScore, type BestEvidence } from './relevance-score.js'
import { LEXICAL_TOP_RANK } from './keep-lexical-top.js'
import { candidateCoverages, contentStems } from './query-terms.js'

/** How many of the fused candidates are scored (twice the largest `limit`): the rest rank too low to matter. */
export const RESCORED_CANDIDATES = 100

/**
 * The text a passage's term coverage is read from: its headings, then its content (a passage under "Refunds" is
 * about refunds even when its sentences do not say the word), as the quality set indexes its passages.
 *
 * @example
 * ```ts
 * evidenceText({ breadcrumb: ['Refunds'], content: 'Orders are paid back in 14 days.' }) // 'Refunds\nOrders are paid back in 14 days.'
 * ```
 */
export function evidenceText(passage: { breadcrumb: readonly string[]; content: string }): string {
  return passage.breadcrumb.length > 0 ? `${passage.breadcrumb.join('\n')}\n${passage.content}` : passage.content
}

/** A fused candidate, in fusion order: its text and its vector's cosine with the query (`null`: no comparable vector). */
export interface RelevanceCandidate<T> {
  item: T
  content: string
  cosine: number | null
  /** True for the best lexical match (BM25 or cover density first): see the rare-term rule of {@link rankByRelevance}. */
  lexicalTop?: boolean
}

/**
 * Options of {@link rankByRelevance}.
 *
 * @example
 * ```ts
 * const options: RankOptions = { floor: 0.2, limit: 10 }
 * ```
 */
export interface RankOptions {
  /** Passages scoring below it are not returned (0 returns every candidate), e.g. `{ floor: 0.2 }`. */
  floor: number
  /** Most results, e.g. `{ limit: 20 }`. */
  limit: number
  /** Refitted model weights (the bench), e.g. `{ weights: { hybrid: [...], lexical: [...] } }`; default the shipped ones. */
  weights?: { hybrid: readonly number[]; lexical: readonly number[] }
}

/**
 * Scores the first {@link RESCORED_CANDIDATES} fused candidates of a query by relevance (decision 1431), drops those
 * under the floor unless they hold every term of the query (decision 1432) and returns the best `limit`, highest
 * score first: the order is the score's, so a threshold a caller applies cuts the list at one place. Ties keep the
 * fusion order. The best lexical match, when it holds a term no other candidate holds, is kept whatever its score
 * and ranks no lower than third (with the score of the place it takes).
 *
 * @example
 * ```ts
 * rankByRelevance('refund window', [{ item: 'p1', content: 'Refunds within 14 days', cosine: 0.6 }], { floor: 0.2, limit: 10 })
 * // [{ item: 'p1', score: 0.74 }]
 * ```
 */
export function rankByRelevance<T>(query: string, candidates: ReadonlyArray<RelevanceCandidate<T>>, options: RankOptions): Array<{ item: T; score: number }> {
  const chosen = candidates.slice(0, RESCORED_CANDIDATES)
  const coverages = candidateCoverages(query, chosen.map((candidate) => candidate.content))
  const best: BestEvidence = { cosine: null, coverage: 0, fullMatches: 0 }
  chosen.forEach((candidate, order) => {
    best.coverage = Math.max(best.coverage, coverages[order]!)
    if (coverages[order]! >= FULL_COVERAGE) best.fullMatches++
    if (candidate.cosine !== null) best.cosine = Math.max(best.cosine ?? -1, candidate.cosine)
  })
  const rare = rareLexicalTop(query, chosen)
  const ranked = chosen
    .map((candidate, order) => ({
      item: candidate.item,
      order,
      // A passage holding every term of the query is a lexical match: never lost to the floor (an exact rare term, a
      // code, or a word many passages share: each of them is about it); nor is the best lexical match of a rare term.
      kept: coverages[order]! >= FULL_COVERAGE || order === rare,
      score: relevanceScore({ cosine: candidate.cosine, coverage: coverages[order]! }, best, options.weights),
    }))
    .filter((entry) => entry.score >= options.floor || entry.kept)
    .sort((a, b) => b.score - a.score || a.order - b.order)
  const at = ranked.findIndex((entry) => entry.order === rare)
  const target = Math.min(LEXICAL_TOP_RANK, ranked.length) - 1
  if (at > target) {
    // The rare-term match rises to the third place and takes the score there, so scores still only go down.
    const [moved] = ranked.splice(at, 1)
    ranked.splice(target, 0, { ...moved!, score: ranked[target]!.score })
  }
  return ranked.slice(0, options.limit).map(({ item, score }) => ({ item, score }))
}

/**
 * The index of the best lexical match when it holds a term of the query that no other candidate holds (a product
 * code, an error number, a name): that passage is never buried under passages merely close in meaning.
 */
function rareLexicalTop(query: string, candidates: ReadonlyArray<RelevanceCandidate<unknown>>): number | undefined {
  const top = candidates.findIndex((candidate) => candidate.lexicalTop === true)
  if (top < 0) return undefined
  const held = new Set(contentStems(candidates[top]!.content))
  const terms = contentStems(query).filter((term) => held.has(term))
  const others = candidates.filter((_, index) => index !== top).map((candidate) => new Set(contentStems(candidate.content)))
  return terms.some((term) => others.every((stems) => !stems.has(term))) ? top : undefined
}
