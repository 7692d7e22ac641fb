import { beforeEach, describe, expect, it } from 'vitest'
import type { Sqlite } from '../connect.js'
import { SqliteTablesStore } from './tables-port.js'
import { openTestTablesStore, peopleSchema } from './tables-port.test-support.js'
import type { PagePosition } from '../../page.js'
import { TablesStoreError } from '../../tables/errors.js'
import { thrownTablesError as thrown } from '../../tables/thrown-error.test-support.js'

const BOT = 'bot_1'

let db: Sqlite
let store: SqliteTablesStore

beforeEach(() => ({ db, store } = openTestTablesStore()))

const people = peopleSchema

describe('schema input forms', () => {
  it('normalizes a full JSON schema, keeping order as x-zui.index', () => {
    const table = store.createTable(BOT, { name: 'peopleTable', schema: people })
    expect(Object.entries(table.schema.properties).map(([k, v]) => [k, v['x-zui'].index])).toEqual([
      ['name', 0], ['age', 1], ['email', 2], ['active', 3], ['born', 4], ['tags', 5],
    ])
    expect(table.schema.properties['name']!['x-zui'].searchable).toBe(true)
    expect(table.schema.required).toEqual(['name'])
    expect(table.schema.additionalProperties).toBe(true)
  })

  it('infers column types from an example object', () => {
    const table = store.createTable(BOT, { name: 'exampleTable', schema: { name: 'Ada', age: 36, ok: true, when: '2026-01-01T00:00:00Z', list: [1], meta: { a: 1 } } })
    const p = table.schema.properties
    expect([p['name']!.type, p['age']!.type, p['ok']!.type, p['when']!.format, p['list']!.items, p['meta']!.type]).toEqual([
      'string', 'number', 'boolean', 'date-time', { type: 'number' }, 'object',
    ])
  })

  it('reads a column map with x-zui (the zai form)', () => {
    const table = store.createTable(BOT, { name: 'mapTable', schema: { text: { type: 'string', 'x-zui': { searchable: true } }, score: { type: ['number', 'null'] } } })
    expect(table.schema.properties['text']!['x-zui']).toEqual({ searchable: true, index: 0 })
    expect(table.schema.properties['score']).toEqual({ type: 'number', nullable: true, 'x-zui': { index: 1 } })
  })

  it('treats an object whose "type" is not a JSON type as an example', () => {
    const table = store.createTable(BOT, { name: 'petTable', schema: { pet: { type: 'dog' } } })
    expect(table.schema.properties['pet']!.type).toBe('object')
  })

  it('refuses reserved, dotted and too long column names, and more than 20 columns', () => {
    expect(thrown(() => store.createTable(BOT, { name: 'aTable', schema: { id: 1 } })).message).toContain('reserved')
    expect(thrown(() => store.createTable(BOT, { name: 'aTable', schema: { 'a.b': 1 } })).type).toBe('InvalidJsonSchema')
    expect(thrown(() => store.createTable(BOT, { name: 'aTable', schema: { ['x'.repeat(31)]: 1 } })).type).toBe('InvalidJsonSchema')
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`c${i}`, i]))
    expect(thrown(() => store.createTable(BOT, { name: 'aTable', schema: many })).type).toBe('LimitExceeded')
  })

  it('refuses an unknown column type, naming the column', () => {
    const error = thrown(() => store.createTable(BOT, { name: 'aTable', schema: { type: 'object', properties: { a: { type: 'int' } } } }))
    expect(error.type).toBe('InvalidJsonSchema')
    expect(error.message).toContain('schema.properties.a.type')
  })

  it('refuses names without the Table suffix and duplicates', () => {
    expect(thrown(() => store.createTable(BOT, { name: 'people', schema: {} })).type).toBe('InvalidPayload')
    store.createTable(BOT, { name: 'peopleTable', schema: {} })
    expect(thrown(() => store.createTable(BOT, { name: 'peopleTable', schema: {} })).type).toBe('AlreadyExists')
    expect(store.createTable('bot_2', { name: 'peopleTable', schema: {} }).name).toBe('peopleTable')
  })
})

describe('updateTable', () => {
  beforeEach(() => {
    store.createTable(BOT, { name: 'peopleTable', schema: people })
    store.createRows(BOT, 'peopleTable', [{ name: 'A', age: 1, email: '12' }, { name: 'B', email: 'x' }])
  })

  it('adds columns (existing rows get null) and removes columns given as null or { type: "null" }', () => {
    const { table } = store.updateTable(BOT, 'peopleTable', { schema: { properties: { note: { type: 'string' }, tags: { type: 'null' } } } })
    expect(Object.keys(table.schema.properties)).toEqual(['name', 'age', 'email', 'active', 'born', 'note'])
    expect(table.schema.properties['note']!['x-zui'].index).toBe(5)
    expect(store.getRow(BOT, 'peopleTable', 1)).toMatchObject({ note: null })
    expect(store.getRow(BOT, 'peopleTable', 1)).not.toHaveProperty('tags')
    store.updateTable(BOT, 'peopleTable', { schema: { age: null } })
    expect(store.getRow(BOT, 'peopleTable', 1)).not.toHaveProperty('age')
  })

  it('resets a column whose type changes, and refuses a date-time format the values do not read as', () => {
    store.updateTable(BOT, 'peopleTable', { schema: { age: { type: 'string' } } })
    expect(store.getRow(BOT, 'peopleTable', 1).age).toBeNull()
    const error = thrown(() => store.updateTable(BOT, 'peopleTable', { schema: { email: { type: 'string', format: 'date-time' } } }))
    expect(error.type).toBe('BreakingChanges')
    expect(store.getRow(BOT, 'peopleTable', 2).email).toBe('x')
  })

  it('refuses making a column required while rows have no value', () => {
    expect(thrown(() => store.updateTable(BOT, 'peopleTable', { schema: { type: 'object', properties: {}, required: ['age'] } })).type).toBe('BreakingChanges')
  })

  it('lets factor only grow', () => {
    store.updateTable(BOT, 'peopleTable', { factor: 3 })
    expect(thrown(() => store.updateTable(BOT, 'peopleTable', { factor: 2 })).message).toContain('may only increase')
  })

  it('sets and removes the key column, refusing duplicates', () => {
    store.createRows(BOT, 'peopleTable', [{ name: 'A' }])
    expect(thrown(() => store.updateTable(BOT, 'peopleTable', { keyColumn: 'name' })).type).toBe('AlreadyExists')
    expect(store.updateTable(BOT, 'peopleTable', { keyColumn: 'email' }).table.keyColumn).toBe('email')
    expect(store.updateTable(BOT, 'peopleTable', { keyColumn: '' }).table.keyColumn).toBeNull()
  })

  it('freezes name and schema but keeps rows writable', () => {
    store.updateTable(BOT, 'peopleTable', { frozen: true })
    expect(thrown(() => store.updateTable(BOT, 'peopleTable', { schema: { x: 1 } })).type).toBe('ResourceLockedConflict')
    expect(thrown(() => store.renameColumn(BOT, 'peopleTable', 'age', 'years')).type).toBe('ResourceLockedConflict')
    expect(store.createRows(BOT, 'peopleTable', [{ name: 'C' }]).rows).toHaveLength(1)
  })

  it('renames a column keeping its data and search', () => {
    store.renameColumn(BOT, 'peopleTable', 'name', 'fullName')
    expect(store.getRow(BOT, 'peopleTable', 1)).toMatchObject({ fullName: 'A' })
    expect(store.findRows(BOT, 'peopleTable', { filter: { fullName: 'B' } }).rows.map((r) => r.id)).toEqual([2])
    expect(store.findRows(BOT, 'peopleTable', { search: 'B' }).rows.map((r) => r.id)).toEqual([2])
  })
})

describe('tables', () => {
  it('lists with a tag filter, oldest first, in keyset pages that end at a position', () => {
    for (const [i, team] of ['a', 'b', 'a'].entries()) store.createTable(BOT, { name: `t${i}Table`, schema: {}, tags: { team } })
    expect(store.listTables(BOT, { tags: { team: 'a' }, pageSize: 10 })).toEqual({ tables: [expect.objectContaining({ name: 't0Table' }), expect.objectContaining({ name: 't2Table' })] })
    const first = store.listTables(BOT, { pageSize: 2 })
    const [t0, t1] = first.tables
    expect([t0!.name, t1!.name]).toEqual(['t0Table', 't1Table'])
    expect(first.next).toEqual({ value: t1!.createdAt, id: t1!.id })
    expect(store.listTables(BOT, { pageSize: 2, after: first.next! })).toEqual({ tables: [expect.objectContaining({ name: 't2Table' })] })
    expect(store.listTables(BOT, { pageSize: 3 })).not.toHaveProperty('next')
    expect(store.listTables('bot_2', { pageSize: 3 })).toEqual({ tables: [] })
  })

  it('breaks createdAt ties by id, and neither skips nor repeats tables that exist throughout a walk', () => {
    const sameInstant = new SqliteTablesStore(db, { now: () => new Date('2026-06-01T00:00:00.000Z') })
    for (let i = 0; i < 5; i++) sameInstant.createTable(BOT, { name: `same${i}Table`, schema: {} })
    const walked: string[] = []
    let after: PagePosition | undefined
    for (let page = 0; page < 10; page++) {
      const result = store.listTables(BOT, after ? { after, pageSize: 2 } : { pageSize: 2 })
      walked.push(...result.tables.map((t) => t.id))
      if (page === 0) {
        store.deleteTable(BOT, result.tables[1]!.id)
        new SqliteTablesStore(db, { now: () => new Date('2026-07-01T00:00:00.000Z') }).createTable(BOT, { name: 'laterTable', schema: {} })
      }
      if (!result.next) break
      after = result.next
    }
    const stored = store.listTables(BOT, { pageSize: 100 }).tables
    expect(new Set(walked).size).toBe(walked.length)
    expect(walked.slice(2)).toEqual(stored.slice(1).map((t) => t.id))
    expect(stored.slice(0, 4).map((t) => t.id)).toEqual([...stored.slice(0, 4).map((t) => t.id)].sort())
    expect(stored.at(-1)!.name).toBe('laterTable')
  })

  it('starts strictly after a position whose table is gone', () => {
    for (const name of ['aTable', 'bTable', 'cTable']) store.createTable(BOT, { name, schema: {} })
    const [a, b] = store.listTables(BOT, { pageSize: 3 }).tables
    store.deleteTable(BOT, a!.id)
    expect(store.listTables(BOT, { after: { value: a!.createdAt!, id: a!.id }, pageSize: 5 }).tables.map((t) => t.id)[0]).toBe(b!.id)
  })

  it('duplicates with rows (not frozen) or schema only, and deletes', () => {
    store.createTable(BOT, { name: 'srcTable', schema: { a: 1 }, frozen: true })
    store.createRows(BOT, 'srcTable', [{ a: 1 }, { a: 2 }])
    const copy = store.duplicateTable(BOT, 'srcTable')
    expect([copy.table.name, copy.rows, copy.table.frozen]).toEqual(['srcCopyTable', 2, false])
    expect(store.findRows(BOT, 'srcCopyTable', {}).rows.map((r) => r['a'])).toEqual([1, 2])
    expect(store.duplicateTable(BOT, 'srcTable', { tableName: 'emptyTable', schemaOnly: true }).rows).toBe(0)
    store.deleteTable(BOT, copy.table.id)
    expect(thrown(() => store.getTable(BOT, 'srcCopyTable')).type).toBe('ResourceNotFound')
  })
})
