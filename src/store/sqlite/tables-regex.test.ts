import { describe, expect, it } from 'vitest'
import { checkRegex, compileSafeRegex } from './tables-regex.js'

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

describe('checkRegex', () => {
  it('refuses backreferences and lookarounds with InvalidQuery naming the path and the reason', () => {
    expect(() => checkRegex('(a)\\1', undefined, 'filter.name')).toThrow(/filter\.name\.\$regex: invalid or unsupported regular expression.*RE2 syntax/)
    expect(() => checkRegex('a(?=b)', undefined, 'filter.name')).toThrow(/RE2 syntax: no backreferences or lookarounds/)
  })

  it('bounds the pattern length and the flags', () => {
    expect(() => checkRegex('a'.repeat(513), undefined, 'filter.name')).toThrow(/at most 512 characters, received 513/)
    expect(() => checkRegex('a', 'g', 'filter.name')).toThrow(/unsupported regex flag "g"/)
    expect(checkRegex('^a', 'i', 'filter.name')).toEqual({ pattern: '^a', flags: 'i' })
  })
})
