import { describe, expect, it } from 'vitest'
import { retryAfterMs } from './retry-after.js'

const now = () => new Date('2026-11-24T06:00:00Z')

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    expect(retryAfterMs('2', now)).toBe(2000)
    expect(retryAfterMs(' 1.5 ', now)).toBe(1500)
    expect(retryAfterMs('Tue, 24 Nov 2026 06:00:30 GMT', now)).toBe(30_000)
    expect(retryAfterMs('Tue, 24 Nov 2026 05:00:00 GMT', now)).toBe(0)
    expect(retryAfterMs('soon', now)).toBeUndefined()
    expect(retryAfterMs(null, now)).toBeUndefined()
  })
})
