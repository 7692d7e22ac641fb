import { describe, expect, it } from 'vitest'
import { parseSearchMinScore } from './search-min-score.js'

describe('--search-min-score', () => {
  it('reads the flag, else the variable, else leaves the default', () => {
    expect(parseSearchMinScore({ 'search-min-score': '0.3' }, { BOTSHELF_SEARCH_MIN_SCORE: '0.5' })).toBe(0.3)
    expect(parseSearchMinScore({}, { BOTSHELF_SEARCH_MIN_SCORE: '0' })).toBe(0)
    expect(parseSearchMinScore({}, {})).toBeUndefined()
  })

  it('refuses a value outside 0..1, naming the flag or the variable', () => {
    expect(() => parseSearchMinScore({ 'search-min-score': '1.5' }, {})).toThrow('--search-min-score: expected a number from 0 to 1, received "1.5"')
    expect(() => parseSearchMinScore({}, { BOTSHELF_SEARCH_MIN_SCORE: 'high' })).toThrow('BOTSHELF_SEARCH_MIN_SCORE: expected a number from 0 to 1, received "high"')
  })
})
