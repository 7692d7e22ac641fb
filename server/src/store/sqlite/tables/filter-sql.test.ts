import { describe, expect, it } from 'vitest'
import Database from 'better-sqlite3'
import { parseFilter, queryColumns } from '../../tables/filter/index.js'
import { tableColumns } from '../../tables/table-columns.js'
import { newTableSchema } from '../../tables/table-schema.js'
import { compileFilterSql } from './filter-sql.js'
import { registerRegexFunction } from './regex-function.js'

const schema = newTableSchema({
  name: { type: 'string' },
  age: { type: 'number' },
  ok: { type: 'boolean' },
  at: { type: 'string', format: 'date-time' },
  tags: { type: 'array', items: { type: 'string' } },
  attrs: { type: 'object' },
})
const columns = tableColumns(schema, { name: 'name', age: 'age', ok: 'ok', at: 'at', tags: 'tags', attrs: 'attrs' })
const compile = (filter: unknown) => compileFilterSql(parseFilter(filter, queryColumns(columns)), (column) => column)

/** Runs a compiled filter over a tiny in-memory table, returning matching ids. */
function matching(filter: Record<string, unknown>): number[] {
  const db = new Database(':memory:')
  registerRegexFunction(db)
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, age REAL, ok INTEGER, at TEXT, tags TEXT, attrs TEXT)')
  const insert = db.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)')
  insert.run(1, 'Ada', 36, 1, '2026-01-01T00:00:00.000Z', '["a","b"]', '{"p":10,"q":"x","r":true}')
  insert.run(2, 'alan', 41, 0, null, '[]', '{"p":"10","r":false}')
  insert.run(3, null, -7, null, '2026-03-01T00:00:00.000Z', null, null)
  const { sql, params } = compile(filter)
  return db.prepare(`SELECT id FROM t WHERE ${sql} ORDER BY id`).pluck().all(...params) as number[]
}

describe('compileFilterSql', () => {
  it('nests long $and and $or lists as balanced trees, far below SQLite\'s expression depth limit', () => {
    const or = { $or: Array.from({ length: 999 }, (_, i) => ({ age: 2 * i - 1000 })) } // even ages: 36, not 41 or -7
    expect(matching(or)).toEqual([1])
    const and = { $and: Array.from({ length: 999 }, () => ({ age: { $gt: 0 } })) }
    expect(matching(and)).toEqual([1, 2])
    const { sql } = compile({ $or: [{ age: 1 }, { age: 2 }, { age: 3 }] })
    expect(sql).toBe('((age IS NOT NULL AND age = ?) OR ((age IS NOT NULL AND age = ?) OR (age IS NOT NULL AND age = ?)))')
  })

  // Issue 28: `$gt` compiled as `>=` was caught only by the seeded differential test.
  it('keeps the boundary value out of $gt and $lt and in $gte and $lte, on numbers, strings and dates', () => {
    expect(matching({ age: { $gt: 36 } })).toEqual([2])
    expect(matching({ age: { $gte: 36 } })).toEqual([1, 2])
    expect(matching({ age: { $lt: 41 } })).toEqual([1, 3])
    expect(matching({ age: { $lte: 41 } })).toEqual([1, 2, 3])
    expect(matching({ name: { $gt: 'Ada' } })).toEqual([2])
    expect(matching({ name: { $gte: 'Ada' } })).toEqual([1, 2])
    expect(matching({ at: { $gt: '2026-01-01T00:00:00.000Z' } })).toEqual([3])
    expect(matching({ at: { $gte: '2026-01-01T00:00:00.000Z' } })).toEqual([1, 3])
    expect(matching({ at: { $lt: '2026-03-01T00:00:00.000Z' } })).toEqual([1])
    expect(matching({ at: { $lte: '2026-03-01T00:00:00.000Z' } })).toEqual([1, 3])
  })

  it('uses parameters, never inlines values', () => {
    const { sql, params } = compile({ name: "x' OR 1=1 --" })
    expect(sql).toBe('(name IS NOT NULL AND name = ?)')
    expect(params).toEqual(["x' OR 1=1 --"])
  })

  it('compiles comparisons to index-friendly SQL that is never NULL', () => {
    expect(compile({ age: { $gte: 10, $lt: 20 } })).toEqual({ sql: '((age IS NOT NULL AND age >= ?) AND (age IS NOT NULL AND age < ?))', params: [10, 20] })
    expect(compile({ ok: true, at: { $gt: '2026-02-01' } }).params).toEqual([1, '2026-02-01T00:00:00.000Z'])
    expect(compile({})).toEqual({ sql: '1', params: [] })
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
    expect(matching({ tags: { $in: ['x', 'a'] } })).toEqual([1])
    expect(matching({ tags: { $nin: ['a'] } })).toEqual([2, 3])
    expect(matching({ at: { $gt: '2026-02-01T00:00:00+00:00' } })).toEqual([3])
    expect(matching({ at: { $lt: '2026-02-01' } })).toEqual([1])
    expect(matching({ at: '2026-01-01T01:00:00+01:00' })).toEqual([1])
    expect(matching({ name: { $regex: '^a' } })).toEqual([2])
    expect(matching({ name: { $regex: '^a', $options: 'i' } })).toEqual([1, 2])
  })

  it('compares values at dot paths only with operands of the same JSON type', () => {
    expect(matching({ 'attrs.p': { $gte: 10 } })).toEqual([1])
    expect(matching({ 'attrs.p': '10' })).toEqual([2])
    expect(matching({ 'attrs.r': false })).toEqual([2])
    expect(matching({ 'attrs.q': { $exists: false } })).toEqual([2, 3])
    expect(matching({ 'attrs.q': { $regex: 'X', $options: 'i' } })).toEqual([1])
    expect(matching({ 'attrs.p': { $in: [10, null] } })).toEqual([1, 3])
    expect(matching({ 'attrs.p': { $mod: [3, 1] } })).toEqual([1])
    expect(compile({ 'attrs.r': true })).toEqual({ sql: `(COALESCE(json_type(attrs, '$."r"'), '') = 'true')`, params: [] })
  })
})
