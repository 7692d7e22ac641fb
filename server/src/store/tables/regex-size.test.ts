import { RE2JS } from 're2js'
import { describe, expect, it } from 'vitest'
import { estimateRegexSize } from './regex-size.js'

describe('estimateRegexSize', () => {
  it('stays close to the compiled size, and rarely below it', () => {
    const patterns = [
      '^[a-z]+@example\\.com$',
      '(.*a){100}',
      'a{1000}',
      '((a{10}){10}){10}',
      '(?i)hello world',
      '\\pL{1000}',
      '\\p{Greek}+x',
      '(?P<n>ab)+',
      '(?:ab|cd){3,5}',
      '[\\]a-z]{2,}',
      '\\Qa.b*c\\E{3}',
      '^\\d{3}-\\d{3}-\\d{4}$',
      '(?s).{0,990}c',
      '[[:alpha:]]{50}',
      '(?i)[\\pL\\pN]{1,900}c',
      '(((a|b)*c){5}d){5}',
    ]
    for (const pattern of patterns) {
      const real = RE2JS.compile(pattern).programSize()
      const estimate = estimateRegexSize(pattern)
      expect(estimate, pattern).toBeGreaterThanOrEqual(real * 0.6)
      expect(estimate, pattern).toBeLessThanOrEqual(Math.max(real * 2.5, real + 10))
    }
  })

  it('multiplies nested repetitions and adds sequences, without compiling', () => {
    expect(estimateRegexSize('(.*a){1000}')).toBe(6000)
    expect(estimateRegexSize('a{1000}'.repeat(70))).toBe(140_000)
    expect(estimateRegexSize('((((a{1000}){1000}){1000}){1000})')).toBeGreaterThan(1e9)
    expect(estimateRegexSize('(?i)')).toBe(0)
  })

  it('reads literal braces, classes and escapes as single atoms', () => {
    expect(estimateRegexSize('a{,5}')).toBe(5)
    expect(estimateRegexSize('[{1000}]')).toBe(1)
    expect(estimateRegexSize('\\{1000}')).toBe(6)
  })
})
