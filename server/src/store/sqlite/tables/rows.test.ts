import { beforeEach, describe, expect, it } from 'vitest'
import type { Sqlite } from '../connect.js'
import type { SqliteTablesStore } from './tables-port.js'
import { openTestTablesStore, peopleSchema } from './tables-port.test-support.js'
import { TablesStoreError } from '../../tables/errors.js'
import { thrownTablesError as thrown } from '../../tables/thrown-error.test-support.js'

const BOT = 'bot_1'

let db: Sqlite
let store: SqliteTablesStore

beforeEach(() => ({ db, store } = openTestTablesStore()))

const people = peopleSchema

describe('rows', () => {
  beforeEach(() => {
    store.createTable(BOT, { name: 'peopleTable', schema: people, keyColumn: 'email' })
  })

  it('creates rows with ids, timestamps, computed {} and nulls for missing columns', () => {
    const { rows, warnings } = store.createRows(BOT, 'peopleTable', [{ name: 'Ada', age: 36, born: '1815-12-10T00:00:00+01:00', extra: 1 }])
    expect(rows[0]).toMatchObject({ id: 1, computed: {}, name: 'Ada', age: 36, email: null, born: '1815-12-09T23:00:00.000Z' })
    expect(warnings).toEqual(['Column "extra" is not in the table schema; its values were ignored'])
    expect(store.getRow(BOT, 'peopleTable', 1)).toEqual(rows[0])
  })

  it('normalizes dates given without a zone (UTC) or without a time (UTC midnight)', () => {
    const { rows } = store.createRows(BOT, 'peopleTable', [{ name: 'a', born: '2026-03-04' }, { name: 'b', born: '2026-03-04T05:06' }])
    expect(rows.map((r) => r['born'])).toEqual(['2026-03-04T00:00:00.000Z', '2026-03-04T05:06:00.000Z'])
    expect(thrown(() => store.createRows(BOT, 'peopleTable', [{ name: 'c', born: '04/03/2026' }])).message).toContain('rows.0.born')
  })

  it('reads rows correctly after columns are added and removed (no stale statements)', () => {
    store.createRows(BOT, 'peopleTable', [{ name: 'A', age: 1 }])
    expect(store.getRow(BOT, 'peopleTable', 1)).toHaveProperty('age', 1)
    store.updateTable(BOT, 'peopleTable', { schema: { age: null, extra: { type: 'string' } } })
    const row = store.getRow(BOT, 'peopleTable', 1)
    expect(row).not.toHaveProperty('age')
    expect(row).toHaveProperty('extra', null)
    expect(store.createRows(BOT, 'peopleTable', [{ name: 'B', extra: 'x' }]).rows[0]).toMatchObject({ id: 2, extra: 'x' })
  })

  it('refuses the whole batch when one row does not fit, naming row and column', () => {
    const error = thrown(() => store.createRows(BOT, 'peopleTable', [{ name: 'Ok' }, { name: 'Bad', age: 'old' }, { age: 3 }]))
    expect(error.type).toBe('InvalidDataFormat')
    expect(error.message).toContain('rows.1.age: expected number, received "old"')
    expect(error.message).toContain('rows.2.name: required')
    expect(store.getTable(BOT, 'peopleTable').rows).toBe(0)
  })

  it('needs a value in non-nullable columns, like required ones', () => {
    store.createTable(BOT, { name: 'strictTable', schema: { a: { type: 'string', nullable: false }, b: { type: 'string' } } })
    expect(thrown(() => store.createRows(BOT, 'strictTable', [{ b: 'x' }])).message).toContain('rows.0.a: the column is not nullable, received missing')
    expect(thrown(() => store.createRows(BOT, 'strictTable', [{ a: null }])).message).toContain('rows.0.a: expected string, received null')
    expect(store.createRows(BOT, 'strictTable', [{ a: 'x' }]).rows[0]).toMatchObject({ a: 'x', b: null })
  })

  it('enforces 4 KB × factor per row', () => {
    const error = thrown(() => store.createRows(BOT, 'peopleTable', [{ name: 'x'.repeat(5000) }]))
    expect(error.message).toContain('the limit is 4096')
    store.updateTable(BOT, 'peopleTable', { factor: 2 })
    expect(store.createRows(BOT, 'peopleTable', [{ name: 'x'.repeat(5000) }]).rows).toHaveLength(1)
  })

  it('keeps the key column unique and rolls back the batch', () => {
    store.createRows(BOT, 'peopleTable', [{ name: 'A', email: 'a@x' }])
    const error = thrown(() => store.createRows(BOT, 'peopleTable', [{ name: 'B', email: 'b@x' }, { name: 'C', email: 'a@x' }]))
    expect(error.type).toBe('AlreadyExists')
    expect(error.message).toContain('rows.1.email')
    expect(store.getTable(BOT, 'peopleTable').rows).toBe(1)
  })

  it('updates named columns only, clears with null, and refuses unknown ids', () => {
    store.createRows(BOT, 'peopleTable', [{ name: 'A', age: 1, email: 'a@x' }])
    const { rows } = store.updateRows(BOT, 'peopleTable', [{ id: 1, age: 2, email: null }])
    expect(rows[0]).toMatchObject({ id: 1, name: 'A', age: 2, email: null })
    expect(rows[0]!.updatedAt! > rows[0]!.createdAt!).toBe(true)
    expect(thrown(() => store.updateRows(BOT, 'peopleTable', [{ id: 1, age: 3 }, { id: 99, age: 3 }])).type).toBe('ResourceNotFound')
    expect(store.getRow(BOT, 'peopleTable', 1).age).toBe(2)
    expect(thrown(() => store.updateRows(BOT, 'peopleTable', [{ id: 1, name: null }])).message).toContain('rows.0.name')
  })

  it('upserts on a key column: updates matches, inserts the rest, in order', () => {
    store.createRows(BOT, 'peopleTable', [{ name: 'A', email: 'a@x', age: 1 }])
    const result = store.upsertRows(BOT, 'peopleTable', [{ email: 'a@x', age: 2 }, { email: 'b@x', name: 'B' }, { email: 'b@x', age: 5 }], 'email')
    expect(result.updated.map((r) => [r.id, r['age']])).toEqual([[1, 2]])
    expect(result.inserted.map((r) => [r.id, r['name'], r['age']])).toEqual([[2, 'B', 5]])
    expect(thrown(() => store.upsertRows(BOT, 'peopleTable', [{ name: 'no key' }], 'email')).type).toBe('InvalidDataFormat')
  })

  it('upserts on id: inserts rows without id, updates rows with one, refuses unknown ids', () => {
    store.createRows(BOT, 'peopleTable', [{ name: 'A' }])
    const result = store.upsertRows(BOT, 'peopleTable', [{ id: 1, name: 'A2' }, { name: 'B' }])
    expect(result.updated.map((r) => r['name'])).toEqual(['A2'])
    expect(result.inserted.map((r) => r['name'])).toEqual(['B'])
    expect(thrown(() => store.upsertRows(BOT, 'peopleTable', [{ id: 42, name: 'x' }])).type).toBe('ResourceNotFound')
  })

  it('refuses an upsert whose key matches several rows when the column is not unique', () => {
    store.createRows(BOT, 'peopleTable', [{ name: 'same' }, { name: 'same' }])
    expect(thrown(() => store.upsertRows(BOT, 'peopleTable', [{ name: 'same', age: 1 }], 'name')).message).toContain('more than one existing row')
  })

  it('deletes by ids, by filter and all rows; exactly one mode', () => {
    store.createRows(BOT, 'peopleTable', [{ name: 'A', age: 1 }, { name: 'B', age: 2 }, { name: 'C', age: 3 }, { name: 'D', age: 4 }])
    expect(store.deleteRows(BOT, 'peopleTable', { ids: [1, 99] })).toEqual({ deletedRows: 1 })
    expect(store.deleteRows(BOT, 'peopleTable', { filter: { age: { $gte: 3 } } })).toEqual({ deletedRows: 2 })
    expect(thrown(() => store.deleteRows(BOT, 'peopleTable', { ids: [2], deleteAllRows: true })).type).toBe('InvalidPayload')
    expect(store.deleteRows(BOT, 'peopleTable', { deleteAllRows: true })).toEqual({ deletedRows: 1 })
    expect(store.createRows(BOT, 'peopleTable', [{ name: 'E' }]).rows[0]!.id).toBe(5)
  })
})

describe('findRows', () => {
  beforeEach(() => {
    store.createTable(BOT, { name: 'peopleTable', schema: people })
    store.createRows(BOT, 'peopleTable', [
      { name: 'Ada Lovelace', age: 36, active: true, tags: ['math', 'poetry'] },
      { name: 'Alan Turing', age: 41, active: false, tags: ['math'] },
      { name: 'Grace Hopper', age: 85, active: true },
      { name: 'Linus', active: true },
    ])
  })

  it('filters, orders with id as tie-breaker, pages with hasMore', () => {
    const page = store.findRows(BOT, 'peopleTable', { filter: { active: true }, orderBy: 'age', orderDirection: 'desc', limit: 2 })
    expect(page.rows.map((r) => r['name'])).toEqual(['Grace Hopper', 'Ada Lovelace'])
    expect(page).toMatchObject({ hasMore: true, offset: 0, limit: 2 })
    const next = store.findRows(BOT, 'peopleTable', { filter: { active: true }, orderBy: 'age', orderDirection: 'desc', limit: 2, offset: 2 })
    expect(next.rows.map((r) => r['name'])).toEqual(['Linus'])
    expect(next.hasMore).toBe(false)
  })

  it('matches array elements and sizes', () => {
    expect(store.findRows(BOT, 'peopleTable', { filter: { tags: 'math' } }).rows.map((r) => r.id)).toEqual([1, 2])
    expect(store.findRows(BOT, 'peopleTable', { filter: { tags: { $size: 2 } } }).rows.map((r) => r.id)).toEqual([1])
  })

  it('searches the searchable columns with FTS and a similarity', () => {
    const { rows } = store.findRows(BOT, 'peopleTable', { search: 'grace' })
    expect(rows.map((r) => r['name'])).toEqual(['Grace Hopper'])
    expect(rows[0]!.similarity).toBeGreaterThan(0)
  })

  it('groups with key, count, sum, avg, min, max and unique', () => {
    const { rows } = store.findRows(BOT, 'peopleTable', { group: { active: 'key', age: ['count', 'sum', 'avg', 'min', 'max'], name: 'unique' } })
    expect(rows).toEqual([
      { activeKey: false, ageCount: 1, ageSum: 41, ageAvg: 41, ageMin: 41, ageMax: 41, nameUnique: ['Alan Turing'] },
      { activeKey: true, ageCount: 2, ageSum: 121, ageAvg: 60.5, ageMin: 36, ageMax: 85, nameUnique: expect.arrayContaining(['Ada Lovelace', 'Grace Hopper', 'Linus']) },
    ])
  })

  it('selects columns and dot paths, always keeping system columns', () => {
    const { rows } = store.findRows(BOT, 'peopleTable', { select: ['name'], limit: 1 })
    expect(Object.keys(rows[0]!).sort()).toEqual(['computed', 'createdAt', 'id', 'name', 'updatedAt'])
  })

  it('filters on dot paths into object columns, comparing same-typed scalars only', () => {
    store.createTable(BOT, { name: 'itemsTable', schema: { attributes: { type: 'object' }, name: 'x' } })
    store.createRows(BOT, 'itemsTable', [
      { name: 'a', attributes: { price: 10, color: 'red', sale: true } },
      { name: 'b', attributes: { price: '12', color: 'blue' } },
      { name: 'c', attributes: { price: 30 } },
      { name: 'd' },
    ])
    const names = (filter: Record<string, unknown>) => store.findRows(BOT, 'itemsTable', { filter }).rows.map((r) => r['name'])
    expect(names({ 'attributes.price': { $gte: 10 } })).toEqual(['a', 'c'])
    expect(names({ 'attributes.price': '12' })).toEqual(['b'])
    expect(names({ 'attributes.sale': true })).toEqual(['a'])
    expect(names({ 'attributes.color': { $exists: false } })).toEqual(['c', 'd'])
    expect(names({ 'attributes.color': { $ne: 'red' } })).toEqual(['b', 'c', 'd'])
    expect(thrown(() => names({ 'name.first': 'x' })).message).toBe('filter.name.first: unknown column "name.first"')
    expect(thrown(() => names({ 'attributes.price': { $near: 1 } })).message).toBe('filter.attributes.price.$near: unknown operator "$near"')
    expect(thrown(() => names({ 'attributes.a"b': 1 })).type).toBe('InvalidQuery')
  })

  it('refuses unknown columns and operators, naming them', () => {
    expect(thrown(() => store.findRows(BOT, 'peopleTable', { filter: { nope: 1 } })).message).toBe('filter.nope: unknown column "nope"')
    expect(thrown(() => store.findRows(BOT, 'peopleTable', { filter: { age: { $near: 1 } } })).message).toBe('filter.age.$near: unknown operator "$near"')
    expect(thrown(() => store.findRows(BOT, 'peopleTable', { orderBy: 'nope' })).type).toBe('InvalidQuery')
    expect(thrown(() => store.findRows(BOT, 'peopleTable', { group: { name: 'sum' } })).type).toBe('InvalidQuery')
  })
})

