import { describe, expect, it } from 'vitest'
import { fuseByReciprocalRank } from './fuse-by-reciprocal-rank.js'

describe('fuseByReciprocalRank', () => {
  it('scores each id by the sum of weight / (k + rank) over the lists', () => {
    const fused = fuseByReciprocalRank([['a', 'b', 'c'], ['c', 'a']], { k: 10 })
    expect(fused.map((r) => r.id)).toEqual(['a', 'c', 'b'])
    expect(fused[0]!.score).toBeCloseTo(1 / 11 + 1 / 12, 12)
    expect(fused[1]).toEqual({ id: 'c', score: 1 / 13 + 1 / 11, ranks: [3, 1] })
    expect(fused[2]!.ranks).toEqual([2, undefined])
  })

  it('lets a document found by both lists beat one found first by only one', () => {
    expect(fuseByReciprocalRank([['x', 'both'], ['y', 'both']], { k: 60 })[0]!.id).toBe('both')
  })

  it('applies weights per list', () => {
    expect(fuseByReciprocalRank([['lexical'], ['vector']], { weights: [1, 2] })[0]!.id).toBe('vector')
    expect(fuseByReciprocalRank([['lexical'], ['vector']], { weights: [2, 1] })[0]!.id).toBe('lexical')
  })

  it('breaks ties by first appearance, deterministically, and counts a repeated id at its best rank', () => {
    expect(fuseByReciprocalRank([['a', 'b'], ['b', 'a']]).map((r) => r.id)).toEqual(['a', 'b'])
    expect(fuseByReciprocalRank([['a', 'a', 'b']], { k: 0 }).map((r) => [r.id, r.score])).toEqual([['a', 1], ['b', 1 / 3]])
  })

  it('with equal weights, lets only a document both lists found overtake the first lexical match', () => {
    for (const k of [1, 5, 60]) {
      const lexical = ['rare-term-match', 'l2', 'shared']
      const vector = ['v1', 'v2', 'v3', 'shared', 'v5']
      const fused = fuseByReciprocalRank([lexical, vector], { k }).map((r) => r.id)
      expect(fused.indexOf('rare-term-match')).toBeLessThanOrEqual(fused.indexOf('v1'))
      expect(fused.slice(0, fused.indexOf('rare-term-match')).every((id) => lexical.includes(id) && vector.includes(id))).toBe(true)
    }
  })

  it('keeps the best `limit` and handles empty input', () => {
    expect(fuseByReciprocalRank([['a', 'b', 'c']], { limit: 2 }).map((r) => r.id)).toEqual(['a', 'b'])
    expect(fuseByReciprocalRank([])).toEqual([])
  })

  it('refuses a bad k or a weight count that does not match the lists', () => {
    expect(() => fuseByReciprocalRank([['a']], { k: -1 })).toThrow('k: expected a finite number ≥ 0, received -1')
    expect(() => fuseByReciprocalRank([['a'], ['b']], { weights: [1] })).toThrow('weights: expected 2 weights (one per list), received 1')
  })
})
