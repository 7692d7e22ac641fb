import { describe, expect, it } from 'vitest'
import { newUlid } from './ulid.js'

describe('newUlid', () => {
  it('is 26 Crockford base32 characters', () => {
    expect(newUlid(new Date())).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
  })

  it('sorts by creation time, whatever the random part', () => {
    const earlier = newUlid(new Date('2026-01-01T00:00:00.000Z'))
    const later = newUlid(new Date('2026-01-01T00:00:00.001Z'))
    expect(earlier < later).toBe(true)
    expect(earlier.slice(0, 10)).toBe(newUlid(new Date('2026-01-01T00:00:00.000Z')).slice(0, 10))
  })

  it('differs between two calls at the same instant', () => {
    const now = new Date()
    expect(newUlid(now)).not.toBe(newUlid(now))
  })
})
