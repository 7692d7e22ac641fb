import { describe, expect, it } from 'vitest'
import { compileFilterRegexes, checkRegex } from './regex-operand.js'
import type { FilterNode } from './ast.js'

const target = { type: 'column', column: 'name', kind: 'string' } as const
const regex = (pattern: string, path = 'filter.name.$regex'): FilterNode => ({ type: 'regex', target, pattern, flags: '', path })

describe('checkRegex', () => {
  it('bounds the pattern length and the flags', () => {
    expect(() => checkRegex('a'.repeat(513), undefined, 'filter.name')).toThrow(/at most 512 characters, received 513/)
    expect(() => checkRegex('a', 'g', 'filter.name')).toThrow('filter.name.$options: unsupported regex flag "g"; allowed: i, m, s, u')
    expect(() => checkRegex('a', 'ii', 'filter.name')).toThrow('filter.name.$options: repeated regex flag in "ii"')
    expect(() => checkRegex('a', 1, 'filter.name')).toThrow('filter.name.$options: expected a string of flags, received number')
    expect(() => checkRegex(1, undefined, 'filter.name')).toThrow('filter.name.$regex: expected a string pattern, received number')
    expect(checkRegex('^a', 'i', 'filter.name')).toEqual({ pattern: '^a', flags: 'i', path: 'filter.name.$regex' })
    expect(checkRegex('^a', undefined, 'filter.name')).toEqual({ pattern: '^a', flags: '', path: 'filter.name.$regex' })
  })
})

describe('compileFilterRegexes', () => {
  it('refuses backreferences and lookarounds with InvalidQuery naming the path and the reason', () => {
    expect(() => compileFilterRegexes(regex('(a)\\1'))).toThrow(/filter\.name\.\$regex: invalid or unsupported regular expression.*RE2 syntax/)
    expect(() => compileFilterRegexes(regex('a(?=b)'))).toThrow(/RE2 syntax: no backreferences or lookarounds/)
  })

  it('refuses a pattern estimated too large before compiling it, and one compiled too large', () => {
    const started = performance.now()
    expect(() => compileFilterRegexes(regex('a{1000}'.repeat(70)))).toThrow('it would compile to about 140000 instructions, at most 1000 are allowed')
    expect(performance.now() - started).toBeLessThan(20)
    expect(() => compileFilterRegexes(regex('(?s).{0,990}c'))).toThrow('filter.name.$regex: the pattern is too complex: it compiles to 1983 instructions')
  })

  it('counts the instructions of every pattern of the filter together, in the order written', () => {
    const both: FilterNode = { type: 'or', nodes: [regex('(.*a){150}', 'filter.$or.0.name.$regex'), { type: 'not', node: regex('(.*a){60}', 'filter.$or.1.name.$regex') }] }
    expect(() => compileFilterRegexes(both)).toThrow('filter.$or.1.name.$regex: the pattern is too complex: the $regex patterns of this filter compile to 1054 instructions together')
    expect(compileFilterRegexes({ type: 'and', nodes: [regex('^a'), regex('b$')] }).map((r) => r.programSize)).toEqual([4, 4])
  })
})
