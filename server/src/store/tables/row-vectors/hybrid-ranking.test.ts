import { describe, expect, it } from 'vitest'
import { rankTableSearch } from './hybrid-ranking.js'
import { arrangeHybridRows, lexicalDepth, planHybridFetch } from './hybrid-fetch.js'
import type { RowsFindPlan } from '../find/index.js'
import type { Row } from 'botshelf/api'

const plan = (change: Partial<RowsFindPlan> = {}): RowsFindPlan => ({
  type: 'rows',
  filter: { type: 'all' },
  search: ['tea'],
  order: { by: 'similarity', direction: 'desc' },
  limit: 2,
  offset: 0,
  warnings: [],
  ...change,
})

describe('rankTableSearch', () => {
  it('fuses both lists, similarity 1 for a row first in both and descending along the ranking', () => {
    const ranked = rankTableSearch([3, 1], [3, 7, 1])
    expect(ranked.map((row) => row.id)).toEqual([3, 1, 7])
    expect(ranked[0]!.similarity).toBe(1)
    for (let i = 1; i < ranked.length; i++) expect(ranked[i]!.similarity).toBeLessThanOrEqual(ranked[i - 1]!.similarity)
    for (const row of ranked) expect(row.similarity).toBeGreaterThan(0)
  })

  it('keeps the best word match in the top three however many vector matches rank above it', () => {
    const ranked = rankTableSearch([42], [1, 2, 3, 4, 5])
    expect(ranked.slice(0, 3).map((row) => row.id)).toContain(42)
    for (let i = 1; i < ranked.length; i++) expect(ranked[i]!.similarity).toBeLessThanOrEqual(ranked[i - 1]!.similarity)
  })

  it('ranks rows found by one list only (not embedded yet, or sharing no word)', () => {
    expect(rankTableSearch([5], []).map((row) => row.id)).toEqual([5])
    expect(rankTableSearch([], [8]).map((row) => row.similarity)).toEqual([0.5])
  })
})

describe('planHybridFetch', () => {
  const ranked = rankTableSearch([3, 1, 9], [3, 7])
  const rows = (ids: number[]): Row[] => ids.map((id) => ({ id, computed: {} }) as Row)

  it('reads the page plus one by id for a similarity order, in ranking order, with hasMore', () => {
    const fetch = planHybridFetch(plan(), ranked)
    expect(fetch.ids).toEqual(ranked.slice(0, 3).map((row) => row.id))
    expect(fetch.plan.search).toBeUndefined()
    const page = arrangeHybridRows(fetch, rows([...fetch.ids].sort()), 2)
    expect(page).toEqual({ rows: rows(fetch.ids.slice(0, 2)), hasMore: true })
    const last = planHybridFetch(plan({ offset: 2 }), ranked)
    expect(arrangeHybridRows(last, rows(last.ids), 2).hasMore).toBe(false)
    const ascending = planHybridFetch(plan({ order: { by: 'similarity', direction: 'asc' }, limit: 10 }), ranked)
    expect(ascending.order).toEqual(ranked.map((row) => row.id).reverse())
  })

  it('hands every candidate to SQL for a column order, and asks the lexical list for every match then', () => {
    const byColumn = plan({ order: { by: 'column', column: 'id', kind: 'number', direction: 'desc' } })
    const fetch = planHybridFetch(byColumn, ranked)
    expect(fetch).toMatchObject({ ids: ranked.map((row) => row.id), plan: { order: byColumn.order, limit: 2, offset: 0 } })
    expect(fetch.order).toBeUndefined()
    expect(lexicalDepth(byColumn)).toBeGreaterThan(1_000_000)
    expect(lexicalDepth(plan({ limit: 500, offset: 20 }))).toBe(521)
    expect(lexicalDepth(plan())).toBe(100)
  })
})
