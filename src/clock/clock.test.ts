import { describe, expect, it } from 'vitest'
import { clockMs, systemClock, toClock } from './clock.js'

describe('clock', () => {
  it('the real clock answers the current time', () => {
    const before = Date.now()
    const at = systemClock().getTime()
    expect(at).toBeGreaterThanOrEqual(before)
    expect(at).toBeLessThanOrEqual(Date.now())
  })

  it('toClock keeps a Date clock, turns epoch milliseconds into a Date and defaults to the real clock', () => {
    const fixed = new Date('2026-01-01T00:00:00Z')
    expect(toClock(() => fixed)()).toBe(fixed)
    expect(toClock(() => 1000)().toISOString()).toBe('1970-01-01T00:00:01.000Z')
    expect(toClock(undefined)).toBe(systemClock)
  })

  it('clockMs reads either kind of clock in milliseconds', () => {
    expect(clockMs(() => new Date(2000))).toBe(2000)
    expect(clockMs(() => 3000)).toBe(3000)
    expect(Math.abs(clockMs(undefined) - Date.now())).toBeLessThan(1000)
  })
})
