import { describe, expect, it } from 'vitest'
import { openDatabase } from './open-database.js'
import { registerRegexFunction, REGEXP_FUNCTION } from './tables-regex-function.js'

describe('registerRegexFunction', () => {
  it('answers 1 or 0 with the flags given, and 0 for a value that is not text', () => {
    const db = openDatabase(':memory:')
    registerRegexFunction(db)
    const match = (pattern: string, flags: string, value: unknown) => db.prepare(`SELECT ${REGEXP_FUNCTION}(?, ?, ?)`).pluck().get(pattern, flags, value)
    expect(match('^ada', 'i', 'Ada Lovelace')).toBe(1)
    expect(match('^ada', '', 'Ada Lovelace')).toBe(0)
    expect(match('^1', '', 12)).toBe(0)
    expect(match('a', '', null)).toBe(0)
  })

  it('stays linear on a catastrophic-backtracking pattern', () => {
    const db = openDatabase(':memory:')
    registerRegexFunction(db)
    expect(db.prepare(`SELECT ${REGEXP_FUNCTION}(?, '', ?)`).pluck().get('^(a+)+$', `${'a'.repeat(20_000)}b`)).toBe(0)
  })
})
