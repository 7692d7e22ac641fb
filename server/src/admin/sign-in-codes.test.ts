import { describe, expect, it } from 'vitest'
import { SignInCodes } from './sign-in-codes.js'

describe('SignInCodes', () => {
  it('redeems a code once, refuses unknown codes, and forgets codes at their expiry', () => {
    let now = Date.parse('2026-05-01T10:00:00Z')
    const codes = new SignInCodes(() => new Date(now), 60_000)
    const a = codes.issue()
    const b = codes.issue()
    expect(a.code).not.toBe(b.code)
    expect(a.code).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(a.expiresAt.toISOString()).toBe('2026-05-01T10:01:00.000Z')
    expect(codes.redeem('made-up')).toBe(false)
    expect(codes.redeem(a.code)).toBe(true)
    expect(codes.redeem(a.code)).toBe(false)
    now += 60_000
    expect(codes.redeem(b.code)).toBe(false)
  })
})
