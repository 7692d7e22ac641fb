import { describe, expect, it } from 'vitest'
import { compileSafeRegex, RegexTooComplexError } from './safe-regex.js'

describe('compileSafeRegex', () => {
  it('matches like a JavaScript search for ordinary patterns, with the i, m and s flags', () => {
    expect(compileSafeRegex('^ada', 'i').test('Ada Lovelace')).toBe(true)
    expect(compileSafeRegex('^ada', '').test('Ada Lovelace')).toBe(false)
    expect(compileSafeRegex('@example\\.com$', '').test('grace@example.com')).toBe(true)
    expect(compileSafeRegex('^b$', 'm').test('a\nb\nc')).toBe(true)
    expect(compileSafeRegex('a.b', 's').test('a\nb')).toBe(true)
    expect(compileSafeRegex('a.b', '').test('a\nb')).toBe(false)
    expect(compileSafeRegex('^é.$', 'u').test('éü')).toBe(true)
  })

  it('answers a catastrophic-backtracking pattern at once instead of stalling the server', () => {
    // With a backtracking engine `^(a+)+$` on this input takes longer than the age of the universe.
    const input = `${'a'.repeat(20_000)}b`
    expect(compileSafeRegex('^(a+)+$', '').test(input)).toBe(false)
    expect(compileSafeRegex('^(a|aa)*c', '').test(input)).toBe(false)
  })
})

describe('compileSafeRegex bounds (docs/decisions/0701-input-bounds.md)', () => {
  it('gives the size of the compiled program', () => {
    expect(compileSafeRegex('^a', '').programSize).toBe(4)
    expect(compileSafeRegex('(.*a){190}', '').programSize).toBe(952)
  })

  it('refuses a program past 1000 instructions, and an estimate past 5000 without compiling', () => {
    expect(() => compileSafeRegex('(.*a){1000}', '')).toThrow(RegexTooComplexError)
    expect(() => compileSafeRegex('(?s).{0,990}c', '')).toThrow('it compiles to 1983 instructions, at most 1000 are allowed')
    const started = performance.now()
    expect(() => compileSafeRegex('a{1000}'.repeat(70), '')).toThrow('it would compile to about 140000 instructions')
    expect(performance.now() - started).toBeLessThan(20)
  })
})
