import { describe, expect, it } from 'vitest'
import { FOLD_FROM, FOLD_TO, foldText, sqlStringLiteral } from './text-folding.js'

describe('text folding for the PostgreSQL full-text index', () => {
  it('folds Latin diacritics to their base letter and ASCII punctuation to spaces', () => {
    expect(foldText('Éléonore, ZX-81 ÓDŹ naïve')).toBe('Eleonore  ZX 81 ODZ naive')
    expect(FOLD_FROM).toHaveLength(FOLD_TO.length)
  })

  it('leaves letters of other scripts and plain ASCII alone', () => {
    expect(foldText('Привет 東京 abc123')).toBe('Привет 東京 abc123')
  })

  it('writes SQL string literals with quotes doubled', () => {
    expect(sqlStringLiteral("it's")).toBe("'it''s'")
  })
})
