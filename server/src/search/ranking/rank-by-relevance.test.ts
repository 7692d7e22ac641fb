import { describe, expect, it } from 'vitest'
import { rankByRelevance } from './rank-by-relevance.js'
import { relevanceScore } from './relevance-score.js'

const candidate = (item: string, content: string, cosine: number | null, lexicalTop = false) => ({ item, content, cosine, lexicalTop })

describe('rankByRelevance', () => {
  it('scores in [0, 1], orders by score and drops what is under the floor', () => {
    const ranked = rankByRelevance('refund window', [candidate('far', 'tents grow mould', 0.1), candidate('near', 'Refunds within a 14 day window', 0.7)], { floor: 0.1, limit: 10 })
    expect(ranked.map((hit) => hit.item)).toEqual(['near'])
    expect(ranked[0]!.score).toBeGreaterThan(0.5)
    expect(ranked[0]!.score).toBeLessThanOrEqual(1)
    expect(rankByRelevance('refund window', [candidate('far', 'tents grow mould', 0.1)], { floor: 0, limit: 10 })[0]!.score).toBeGreaterThanOrEqual(0)
  })

  it('never loses a passage holding every term of the query to the floor', () => {
    const many = Array.from({ length: 20 }, (_, i) => candidate(`p${i}`, `paddles number ${i}`, null))
    expect(rankByRelevance('paddles', many, { floor: 0.99, limit: 50 })).toHaveLength(20)
  })

  it('keeps the best lexical match of a rare term in the first three, with scores still descending', () => {
    const candidates = [
      candidate('c1', 'cats purr softly', 0.99),
      candidate('c2', 'kittens purr when content', 0.98),
      candidate('c3', 'felines purr at night', 0.97),
      candidate('c4', 'a purring pet', 0.96),
      candidate('zx', 'ZX-81 error code table', 0, true),
    ]
    const ranked = rankByRelevance('ZX-81 purr', candidates, { floor: 0.1, limit: 5 })
    expect(ranked.slice(0, 3).map((hit) => hit.item)).toContain('zx')
    for (let i = 1; i < ranked.length; i++) expect(ranked[i - 1]!.score).toBeGreaterThanOrEqual(ranked[i]!.score)
  })

  it('gives a passage the same score whatever unrelated candidates come with it', () => {
    const target = candidate('t', 'Refunds are issued within 14 days', 0.6)
    const alone = rankByRelevance('refund days', [target], { floor: 0, limit: 5 })[0]!.score
    const unrelated = Array.from({ length: 40 }, (_, i) => candidate(`u${i}`, `choir rehearses madrigals ${i}`, 0.05))
    const crowded = rankByRelevance('refund days', [target, ...unrelated], { floor: 0, limit: 5 }).find((hit) => hit.item === 't')!.score
    expect(Math.abs(crowded - alone)).toBeLessThan(1e-9)
  })

  it('answers nothing when no candidate is related', () => {
    expect(rankByRelevance('zzzqqq xylophone', [candidate('a', 'tents grow mould', 0.05)], { floor: 0.1, limit: 5 })).toEqual([])
    expect(rankByRelevance('anything', [], { floor: 0, limit: 5 })).toEqual([])
  })

  it('uses the lexical model for a candidate without a comparable vector', () => {
    const best = { cosine: null, coverage: 1, fullMatches: 1 }
    expect(relevanceScore({ cosine: null, coverage: 1 }, best)).toBeGreaterThan(0.7)
    expect(relevanceScore({ cosine: null, coverage: 0 }, best)).toBeLessThan(0.05)
  })
})
