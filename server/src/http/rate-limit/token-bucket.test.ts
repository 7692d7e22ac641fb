import { describe, expect, it } from 'vitest'
import { fullAt, takeTokens, tokensAt } from './token-bucket.js'

const limit = { perSecond: 10, burst: 3 }

describe('token bucket', () => {
  it('starts full, lets a burst through, then refuses with the exact wait for one token', () => {
    let state = undefined as ReturnType<typeof takeTokens>['state'] | undefined
    const remaining: number[] = []
    for (let i = 0; i < 3; i++) {
      const taken = takeTokens(state, limit, 1, 1_000)
      expect(taken.decision.allowed).toBe(true)
      remaining.push(taken.decision.remaining)
      state = taken.state
    }
    expect(remaining).toEqual([2, 1, 0])
    const refused = takeTokens(state, limit, 1, 1_040)
    // 40 ms gave back 0.4 token; 0.6 more take 60 ms at 10 a second.
    expect(refused.decision).toEqual({ allowed: false, remaining: 0, retryAfterMs: 60 })
    expect(takeTokens(refused.state, limit, 1, 1_099).decision.allowed).toBe(false)
    expect(takeTokens(refused.state, limit, 1, 1_100).decision).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 })
  })

  it('takes nothing when it refuses, so a caller who keeps knocking still gets the sustained rate', () => {
    const one = { perSecond: 1, burst: 1 }
    let state = takeTokens(undefined, one, 1, 0).state
    let allowed = 0
    for (let t = 10; t <= 10_000; t += 10) {
      const taken = takeTokens(state, one, 1, t)
      state = taken.state
      if (taken.decision.allowed) allowed += 1
    }
    expect(allowed).toBe(10)
  })

  it('refills continuously up to the burst, ignores a clock that went back, and knows when it is full again', () => {
    expect(tokensAt(undefined, limit, 0)).toBe(3)
    expect(tokensAt({ tokens: 0, updatedAt: 1_000 }, limit, 1_150)).toBeCloseTo(1.5)
    expect(tokensAt({ tokens: 0, updatedAt: 1_000 }, limit, 60_000)).toBe(3)
    expect(tokensAt({ tokens: 1, updatedAt: 1_000 }, limit, 500)).toBe(1)
    expect(fullAt({ tokens: 1, updatedAt: 1_000 }, limit)).toBe(1_200)
  })

  it('never allows a cost above the burst, and says no wait will do', () => {
    const taken = takeTokens(undefined, limit, 4, 0)
    expect(taken.decision.allowed).toBe(false)
    expect(taken.decision.retryAfterMs).toBe(Number.POSITIVE_INFINITY)
  })
})
