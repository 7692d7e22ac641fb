import { describe, expect, it } from 'vitest'
import { isIsoDateTime, normalizeDateTime } from './date-time.js'

describe('normalizeDateTime', () => {
  it('reads zoned, zoneless (UTC) and date-only values as one UTC instant', () => {
    expect(normalizeDateTime('2026-01-01T10:00+02:00')).toBe('2026-01-01T08:00:00.000Z')
    expect(normalizeDateTime('2026-01-01T10:00:00')).toBe('2026-01-01T10:00:00.000Z')
    expect(normalizeDateTime('2026-01-01')).toBe('2026-01-01T00:00:00.000Z')
  })

  it('refuses what is not a date-time', () => {
    expect(normalizeDateTime('yesterday')).toBeUndefined()
    expect(normalizeDateTime('2026-13-45T00:00:00Z')).toBeUndefined()
    expect(normalizeDateTime(1767225600000)).toBeUndefined()
  })
})

describe('isIsoDateTime', () => {
  it('needs a time and a zone', () => {
    expect(isIsoDateTime('2026-01-02T03:04:05.000Z')).toBe(true)
    expect(isIsoDateTime('2026-01-02')).toBe(false)
    expect(isIsoDateTime('2026-01-02T03:04:05')).toBe(false)
  })
})
