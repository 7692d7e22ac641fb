import { describe, expect, it } from 'vitest'
import { keepLexicalTop, LEXICAL_TOP_RANK } from './keep-lexical-top.js'

describe('keepLexicalTop', () => {
  const fused = ['v1', 'v2', 'v3', 'v4', 'lex'].map((id, index) => ({ id, score: 1 - index / 10 }))

  it(`moves the best lexical match up to rank ${LEXICAL_TOP_RANK} with the score it overtakes, keeping scores descending`, () => {
    const kept = keepLexicalTop(fused, 'lex')
    expect(kept.map((entry) => entry.id)).toEqual(['v1', 'v2', 'lex', 'v3', 'v4'])
    expect(kept[2]!.score).toBe(kept[3]!.score)
    for (let i = 1; i < kept.length; i++) expect(kept[i - 1]!.score).toBeGreaterThanOrEqual(kept[i]!.score)
  })

  it('leaves the order alone when the lexical match already ranks high enough, or there is none', () => {
    expect(keepLexicalTop(fused, 'v2')).toBe(fused)
    expect(keepLexicalTop(fused, undefined)).toBe(fused)
    const short = fused.slice(0, 2)
    expect(keepLexicalTop(short, 'v2')).toBe(short)
  })
})
