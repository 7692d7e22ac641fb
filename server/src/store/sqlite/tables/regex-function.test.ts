import { describe, expect, it } from 'vitest'
import { TablesStoreError } from '../../tables/errors.js'
import { RegexBudget, queryRegexBudget } from '../../tables/regex-budget.js'
import { regexLimits } from '../../tables/regex-limits.js'
import { compileSafeRegex } from '../../tables/safe-regex.js'
import { openDatabase } from '../connect.js'
import { registerRegexFunction, REGEXP_FUNCTION } from './regex-function.js'

describe('registerRegexFunction', () => {
  it('answers 1 or 0 with the flags given, and 0 for a value that is not text', () => {
    const db = openDatabase(':memory:')
    registerRegexFunction(db)
    const match = (pattern: string, flags: string, value: unknown) => db.prepare(`SELECT ${REGEXP_FUNCTION}(?, ?, 'p', ?)`).pluck().get(pattern, flags, value)
    expect(match('^ada', 'i', 'Ada Lovelace')).toBe(1)
    expect(match('^ada', '', 'Ada Lovelace')).toBe(0)
    expect(match('^1', '', 12)).toBe(0)
    expect(match('a', '', null)).toBe(0)
  })

  it('stays linear on a catastrophic-backtracking pattern', () => {
    const db = openDatabase(':memory:')
    registerRegexFunction(db)
    expect(db.prepare(`SELECT ${REGEXP_FUNCTION}(?, '', 'p', ?)`).pluck().get('^(a+)+$', `${'a'.repeat(20_000)}b`)).toBe(0)
  })

  it('counts every match of a statement against the budget it runs under, and aborts the statement past it', () => {
    const db = openDatabase(':memory:')
    const regex = registerRegexFunction(db)
    db.exec('CREATE TABLE t (v TEXT)')
    const insert = db.prepare('INSERT INTO t VALUES (?)')
    for (let i = 0; i < 100; i++) insert.run(`value ${i}${'x'.repeat(2_000)}`)
    let clock = 0
    let calls = 0
    // A fake clock: every match takes 0.5 ms, less than its worst case, so the first match that could pass 10 ms
    // is refused before it runs.
    const worstMs = (compileSafeRegex('^value', '').programSize * 2009) / regexLimits.unitsPerMs
    const fitting = Math.floor((10 - worstMs) / 0.5) + 1
    const budget = new RegexBudget({ baseMs: 10, now: () => (calls++ % 2 === 0 ? clock : (clock += 0.5)), refuse: (reason, path) => new TablesStoreError('InvalidQuery', 'INVALID_QUERY', `${path}: ${reason}`) })
    const statement = db.prepare(`SELECT COUNT(*) FROM t WHERE ${REGEXP_FUNCTION}('^value', '', 'filter.v.$regex', v) = 1`).pluck()
    const error = (() => {
      try {
        regex.withBudget(budget, () => statement.get())
      } catch (thrown) {
        return thrown
      }
      return undefined
    })()
    expect(error).toBeInstanceOf(TablesStoreError)
    expect((error as Error).message).toMatch(
      new RegExp(`^filter\\.v\\.\\$regex: ${fitting} values took ${(fitting * 0.5).toFixed(1)} ms so far and the next, a pattern of \\d+ instructions against a value of 2008 characters may take up to \\d\\.\\d ms; at most 10 ms are allowed$`),
    )
    // Outside a budget each match is bounded alone, and the connection keeps working.
    expect(regex.withBudget(queryRegexBudget(), () => statement.get())).toBe(100)
  })

  it('refuses, before running it, a match that alone could take longer than a query may', () => {
    const db = openDatabase(':memory:')
    registerRegexFunction(db)
    const started = performance.now()
    const run = () => db.prepare(`SELECT ${REGEXP_FUNCTION}(?, '', 'filter.body.$regex', ?)`).pluck().get('(.*a){190}', 'ab'.repeat(30_000))
    expect(run).toThrow(
      'filter.body.$regex: the $regex filter needs more work than allowed: a pattern of 952 instructions against a value of 60000 characters may take up to 7140 ms, and at most 50 ms are allowed; use a simpler pattern, or narrow the rows with other conditions first',
    )
    expect(performance.now() - started).toBeLessThan(50)
  })
})
