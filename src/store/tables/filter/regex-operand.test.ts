import { describe, expect, it } from 'vitest'
import { checkRegex } from './regex-operand.js'

describe('checkRegex', () => {
  it('refuses backreferences and lookarounds with InvalidQuery naming the path and the reason', () => {
    expect(() => checkRegex('(a)\\1', undefined, 'filter.name')).toThrow(/filter\.name\.\$regex: invalid or unsupported regular expression.*RE2 syntax/)
    expect(() => checkRegex('a(?=b)', undefined, 'filter.name')).toThrow(/RE2 syntax: no backreferences or lookarounds/)
  })

  it('bounds the pattern length and the flags', () => {
    expect(() => checkRegex('a'.repeat(513), undefined, 'filter.name')).toThrow(/at most 512 characters, received 513/)
    expect(() => checkRegex('a', 'g', 'filter.name')).toThrow('filter.name.$options: unsupported regex flag "g"; allowed: i, m, s, u')
    expect(() => checkRegex('a', 'ii', 'filter.name')).toThrow('filter.name.$options: repeated regex flag in "ii"')
    expect(() => checkRegex('a', 1, 'filter.name')).toThrow('filter.name.$options: expected a string of flags, received number')
    expect(() => checkRegex(1, undefined, 'filter.name')).toThrow('filter.name.$regex: expected a string pattern, received number')
    expect(checkRegex('^a', 'i', 'filter.name')).toEqual({ pattern: '^a', flags: 'i' })
    expect(checkRegex('^a', undefined, 'filter.name')).toEqual({ pattern: '^a', flags: '' })
  })
})
