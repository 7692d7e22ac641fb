import { describe, expect, it } from 'vitest'
import { RegexBudget, RegexBudgetExceeded, queryRegexBudget, schemaRegexBudget, writeRegexBudget } from './regex-budget.js'
import type { SafeRegex } from './safe-regex.js'

/** A pattern of `programSize` instructions whose every match takes `tookMs` on the budget's clock. */
function fakeRegex(programSize: number, clock: { t: number }, tookMs: number): SafeRegex {
  return {
    programSize,
    test: (value) => {
      clock.t += tookMs
      return value.includes('a')
    },
  }
}

describe('RegexBudget', () => {
  it('counts the time matches take and refuses the one that could overrun, before running it', () => {
    const clock = { t: 0 }
    const budget = new RegexBudget({ baseMs: 10, now: () => clock.t })
    const regex = fakeRegex(10, clock, 3)
    const value = `a${'x'.repeat(2_498)}` // 10 instructions × 2500 steps / 8000 = 3.1 ms at worst
    expect(budget.test(regex, value, 'p')).toBe(true)
    expect(budget.test(regex, value, 'p')).toBe(true)
    expect(budget.test(regex, value, 'p')).toBe(true) // 6 + 3.1 ≤ 10
    expect(clock.t).toBe(9)
    expect(() => budget.test(regex, value, 'filter.s.$regex')).toThrow(
      new RegexBudgetExceeded('3 values took 9.0 ms so far and the next, a pattern of 10 instructions against a value of 2499 characters may take up to 3.1 ms; at most 10 ms are allowed', 'filter.s.$regex'),
    )
    expect(clock.t).toBe(9)
  })

  it('counts a match at most at twice its worst case and a millisecond: a pause of the process is not the pattern\'s doing', () => {
    const clock = { t: 0 }
    const budget = new RegexBudget({ baseMs: 10, now: () => clock.t })
    const paused = fakeRegex(10, clock, 1_000)
    for (let i = 0; i < 9; i++) expect(budget.test(paused, 'abc', 'p')).toBe(true) // each counted 1.01 ms
    expect(clock.t).toBe(9_000)
    expect(() => budget.test(paused, 'x'.repeat(800), 'p')).toThrow(RegexBudgetExceeded) // 9.09 + 1.0 > 10
  })

  it('refuses at once a single match whose worst case passes the allowance', () => {
    const clock = { t: 0 }
    const budget = new RegexBudget({ now: () => clock.t })
    const regex = fakeRegex(1000, clock, 0)
    const error = (() => {
      try {
        budget.test(regex, 'a'.repeat(2_000), 'rows.0.code')
      } catch (thrown) {
        return thrown as RegexBudgetExceeded
      }
      return undefined
    })()
    expect(error?.reason).toBe('a pattern of 1000 instructions against a value of 2000 characters may take up to 250 ms, and at most 50 ms are allowed')
    expect(error?.path).toBe('rows.0.code')
    expect(clock.t).toBe(0)
    expect(budget.test(regex, 'a'.repeat(300), 'rows.1.code')).toBe(true) // 37.6 ms at worst: allowed
  })

  it('grows a write allowance with the characters checked', () => {
    const clock = { t: 0 }
    const write = new RegexBudget({ perCharNs: 100, now: () => clock.t })
    const regex = fakeRegex(20, clock, 0.5)
    // Values of 1000 characters taking 0.5 ms each, 2.5 ms at worst: the allowance at the nth value is
    // 50 + 0.1 n ms and 0.5 (n - 1) are spent, so the 120th value (index 119) is the first refused.
    let checked = 0
    expect(() => {
      for (; checked < 1000; checked++) write.test(regex, 'a'.repeat(1_000), `rows.${checked}.text`)
    }).toThrow(RegexBudgetExceeded)
    expect(checked).toBe(119)
  })

  it('answers the refusal of each use in its own terms', () => {
    const regex: SafeRegex = { programSize: 1000, test: () => true }
    const long = 'a'.repeat(100_000)
    expect(() => queryRegexBudget().test(regex, long, 'filter.t.$regex')).toThrow(/^filter\.t\.\$regex: the \$regex filter needs more work than allowed: a pattern of 1000 instructions/)
    expect(() => queryRegexBudget().test(regex, long, 'filter.t.$regex')).toThrow(expect.objectContaining({ type: 'InvalidQuery', code: 'INVALID_QUERY' }))
    expect(() => schemaRegexBudget().test(regex, long, 'schema.t.pattern')).toThrow(expect.objectContaining({ type: 'InvalidJsonSchema' }))
    expect(() => writeRegexBudget().test(regex, long, 'rows.0.t')).toThrow(RegexBudgetExceeded)
  })
})
