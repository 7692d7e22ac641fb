import type { Row } from 'botshelf/api'
import type { RowsFindPlan } from '../find/index.js'
import { TABLE_SEARCH_CANDIDATES, type RankedRow } from './hybrid-ranking.js'

/** Lexical depth when every match counts (ordering by a column, or by similarity going up). */
const EVERY_MATCH = 1_000_000_000

/**
 * How deep the lexical list of a hybrid search goes: with the default order (best first) the page and one more
 * row, and at least `TABLE_SEARCH_CANDIDATES`; with any other order every match, so no matching row is left out.
 *
 * @example
 * ```ts
 * lexicalDepth(plan) // 100 for { limit: 20, offset: 0, order: { by: 'similarity', direction: 'desc' } }
 * ```
 */
export function lexicalDepth(plan: RowsFindPlan): number {
  return plan.order.by === 'similarity' && plan.order.direction === 'desc' ? Math.max(TABLE_SEARCH_CANDIDATES, plan.offset + plan.limit + 1) : EVERY_MATCH
}

/** How an adapter reads the rows of a hybrid search once they are ranked. */
export interface HybridFetch {
  /** The find to compile, without `search` (the candidates are the ids), ordered and paged as it says. */
  plan: RowsFindPlan
  /** Only these rows are read. */
  ids: number[]
  /** Each candidate's `similarity`. */
  similarity: Map<number, number>
  /** With a similarity order: the page's ids in order (one more than the page when there are more). */
  order?: number[]
}

/**
 * Turns a hybrid ranking into the read of the page: ordered by similarity, the page's ids (plus one, to learn
 * `hasMore`) are read by id and put in ranking order (`arrangeHybridRows`); ordered by a column, the candidates are
 * read with the plan's order, limit and offset in SQL.
 *
 * @example
 * ```ts
 * const fetch = planHybridFetch(plan, rankTableSearch(lexicalIds, vectorIds))
 * const rows = arrangeHybridRows(fetch, runCompiled(fetch.plan, fetch.ids), plan.limit)
 * ```
 */
export function planHybridFetch(plan: RowsFindPlan, ranked: readonly RankedRow[]): HybridFetch {
  const similarity = new Map(ranked.map((row) => [row.id, row.similarity]))
  const { search: _search, ...rest } = plan
  if (plan.order.by === 'similarity') {
    const ordered = plan.order.direction === 'desc' ? ranked : [...ranked].reverse()
    const page = ordered.slice(plan.offset, plan.offset + plan.limit + 1).map((row) => row.id)
    return {
      plan: { ...rest, order: { by: 'column', column: 'id', kind: 'number', direction: 'asc' }, limit: page.length, offset: 0 },
      ids: page,
      similarity,
      order: page,
    }
  }
  return { plan: rest, ids: ranked.map((row) => row.id), similarity }
}

/**
 * The rows of a hybrid page in their final order, with `hasMore`: ranking order for a similarity order (the rows
 * read by id), the SQL order otherwise.
 *
 * @example
 * ```ts
 * const { rows, hasMore } = arrangeHybridRows(fetch, decodedRows, 20)
 * ```
 */
export function arrangeHybridRows(fetch: HybridFetch, rows: Row[], limit: number): { rows: Row[]; hasMore: boolean } {
  let arranged = rows
  if (fetch.order) {
    const byId = new Map(rows.map((row) => [row.id, row]))
    arranged = fetch.order.flatMap((id) => byId.get(id) ?? [])
  }
  return { rows: arranged.slice(0, limit), hasMore: arranged.length > limit }
}
