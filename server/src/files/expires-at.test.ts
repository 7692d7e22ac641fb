import { describe, expect, it } from 'vitest'
import { checkExpiresAt } from './expires-at.js'

const now = new Date('2026-11-22T00:00:00.000Z')

describe('checkExpiresAt', () => {
  it('normalizes to UTC', () => {
    expect(checkExpiresAt('2026-11-23T02:00:00+02:00', now)).toBe('2026-11-23T00:00:00.000Z')
  })
  it('accepts exactly 90 days and refuses one millisecond more', () => {
    expect(checkExpiresAt('2027-02-20T00:00:00.000Z', now)).toBe('2027-02-20T00:00:00.000Z')
    expect(() => checkExpiresAt('2027-02-20T00:00:00.001Z', now)).toThrow(/at most 90 days/)
  })
  it('refuses now and the past', () => {
    expect(() => checkExpiresAt('2026-11-22T00:00:00.000Z', now)).toThrow(/in the future/)
    expect(() => checkExpiresAt('2020-01-01T00:00:00Z', now)).toThrow(/in the future/)
  })
})
