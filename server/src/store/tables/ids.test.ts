import { describe, expect, it } from 'vitest'
import { isTableId, newTableId, newTableJobId } from './ids.js'

describe('table ids', () => {
  it('prefixes a ULID, sortable by creation time', () => {
    expect(newTableId(new Date())).toMatch(/^table_[0-9A-HJKMNP-TV-Z]{26}$/)
    expect(newTableJobId(new Date())).toMatch(/^tjob_[0-9A-HJKMNP-TV-Z]{26}$/)
    expect(newTableId(new Date('2026-01-01T00:00:00Z')) < newTableId(new Date('2026-01-02T00:00:00Z'))).toBe(true)
  })

  it('tells ids from names', () => {
    expect(isTableId(newTableId(new Date()))).toBe(true)
    expect(isTableId('ordersTable')).toBe(false)
    expect(isTableId('table_ordersTable')).toBe(false)
  })
})
