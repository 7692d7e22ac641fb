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

  it('increases within one millisecond, so ids made at the same instant sort in the order they were made', () => {
    const now = new Date('2026-03-01T00:00:00.000Z')
    const ids = Array.from({ length: 1000 }, () => newUlid(now))
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(1000)
    expect(new Set(ids.map((id) => id.slice(0, 10))).size).toBe(1)
  })

  it('differs between two calls at the same instant', () => {
    const now = new Date()
    expect(newUlid(now)).not.toBe(newUlid(now))
  })
})
