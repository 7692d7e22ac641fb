import { describe, expect, it } from 'vitest'
import Database from 'better-sqlite3'
import { compileFilter, type FilterColumn } from './tables-filter.js'
import { registerRegexFunction } from './tables-regex.js'
import { TablesStoreError } from '../tables/errors.js'

const columns: Record<string, FilterColumn> = {
  name: { sql: 'name', kind: 'string' },
  age: { sql: 'age', kind: 'number' },
  ok: { sql: 'ok', kind: 'boolean' },
  at: { sql: 'at', kind: 'date' },
  tags: { sql: 'tags', kind: 'array' },
  id: { sql: 'id', kind: 'number' },
}
const resolve = (name: string) => columns[name]

/** Runs a compiled filter over a tiny in-memory table, returning matching ids. */
function matching(filter: Record<string, unknown>): number[] {
  const db = new Database(':memory:')
  registerRegexFunction(db)
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, age REAL, ok INTEGER, at TEXT, tags TEXT)')
  const insert = db.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)')
  insert.run(1, 'Ada', 36, 1, '2026-01-01T00:00:00.000Z', '["a","b"]')
  insert.run(2, 'alan', 41, 0, null, '[]')
  insert.run(3, null, -7, null, '2026-03-01T00:00:00.000Z', null)
  const { sql, params } = compileFilter(filter, resolve)
  return db.prepare(`SELECT id FROM t WHERE ${sql} ORDER BY id`).pluck().all(...params) as number[]
}

function error(filter: unknown): TablesStoreError {
  try {
    compileFilter(filter, resolve)
  } catch (e) {
    if (e instanceof TablesStoreError) return e
    throw e
  }
  throw new Error('expected an error')
}

describe('compileFilter', () => {
  it('uses parameters, never inlines values', () => {
    const { sql, params } = compileFilter({ name: "x' OR 1=1 --" }, resolve)
    expect(sql).not.toContain('OR 1=1')
    expect(params).toEqual(["x' OR 1=1 --"])
  })

  it('treats a bare value as $eq and several keys as AND', () => {
    expect(matching({ name: 'Ada' })).toEqual([1])
    expect(matching({ ok: true, age: { $gt: 40 } })).toEqual([])
    expect(matching({ ok: false, age: { $gt: 40 } })).toEqual([2])
  })

  it('matches missing values with $ne, $nin, $exists: false and $eq: null, like MongoDB', () => {
    expect(matching({ name: { $ne: 'Ada' } })).toEqual([2, 3])
    expect(matching({ name: { $nin: ['Ada'] } })).toEqual([2, 3])
    expect(matching({ name: { $exists: false } })).toEqual([3])
    expect(matching({ name: null })).toEqual([3])
    expect(matching({ name: { $in: [null, 'alan'] } })).toEqual([2, 3])
  })

  it('keeps $not true for missing values', () => {
    expect(matching({ age: { $not: { $gt: 40 } } })).toEqual([1, 3])
    expect(matching({ name: { $not: { $regex: '^a', $options: 'i' } } })).toEqual([3])
    expect(matching({ $not: { name: 'Ada' } })).toEqual([2, 3])
  })

  it('supports $or, $and, $mod (truncating), $size, dates and regex flags', () => {
    expect(matching({ $or: [{ name: 'Ada' }, { age: { $lt: 0 } }] })).toEqual([1, 3])
    expect(matching({ $and: [{ age: { $gte: 36 } }, { age: { $lte: 40 } }] })).toEqual([1])
    expect(matching({ age: { $mod: [3, -1] } })).toEqual([3])
    expect(matching({ tags: { $size: 0 } })).toEqual([2])
    expect(matching({ tags: 'b' })).toEqual([1])
    expect(matching({ at: { $gt: '2026-02-01T00:00:00+00:00' } })).toEqual([3])
    expect(matching({ at: { $lt: '2026-02-01' } })).toEqual([1])
    expect(matching({ at: '2026-01-01T01:00:00+01:00' })).toEqual([1])
    expect(matching({ name: { $regex: '^a' } })).toEqual([2])
    expect(matching({ name: { $regex: '^a', $options: 'i' } })).toEqual([1, 2])
  })

  it('refuses unknown columns and operators, naming the path', () => {
    expect(error({ nope: 1 }).message).toBe('filter.nope: unknown column "nope"')
    expect(error({ age: { $between: [1, 2] } }).message).toBe('filter.age.$between: unknown operator "$between"')
    expect(error({ $nor: [{ age: 1 }] }).message).toBe('filter.$nor: unknown operator "$nor"')
    expect(error({ $or: [{ age: 1 }, { nope: 2 }] }).message).toBe('filter.$or.1.nope: unknown column "nope"')
  })

  it('refuses operands of the wrong type and malformed operators', () => {
    expect(error({ age: { $gt: '5' } }).message).toBe('filter.age.$gt: expected a number, received "5"')
    expect(error({ at: { $lt: 'yesterday' } }).message).toContain('ISO 8601')
    expect(error({ age: { $in: [] } }).message).toContain('non-empty array')
    expect(error({ $or: [] }).message).toContain('non-empty array')
    expect(error({ age: { $mod: [0, 1] } }).message).toContain('divisor')
    expect(error({ ok: { $gt: true } }).message).toContain('does not apply to a boolean column')
    expect(error({ name: { $regex: '(' } }).type).toBe('InvalidQuery')
    expect(error({ name: { $regex: 'a', $options: 'g' } }).message).toContain('unsupported regex flag "g"')
    expect(error({ name: { $options: 'i' } }).message).toContain('needs a sibling "$regex"')
    expect(error({ age: {} }).message).toContain('empty condition')
  })

  it('bounds $in lists, nesting depth and the number of values instead of failing in SQLite', () => {
    expect(error({ age: { $in: Array.from({ length: 1001 }, (_, i) => i) } }).message).toContain('at most 1000 values')
    let deep: Record<string, unknown> = { age: 1 }
    for (let i = 0; i < 40; i++) deep = { $not: deep }
    expect(error(deep).message).toContain('nest at most 16 levels')
    const wide = { $or: Array.from({ length: 6 }, () => ({ age: { $in: Array.from({ length: 1000 }, (_, i) => i) } })) }
    expect(error(wide).message).toContain('too large')
  })
})
