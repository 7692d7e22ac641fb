import { beforeEach, describe, expect, it } from 'vitest'
import { thrownTablesError as thrown } from '../../tables/thrown-error.test-support.js'
import { runMigrations } from '../migrations.js'
import { openDatabase, type Sqlite } from '../connect.js'
import { tablesMigrations } from './migrations.js'
import { SqliteTablesStore } from './tables-port.js'

const BOT = 'bot_1'
let db: Sqlite
let store: SqliteTablesStore

beforeEach(() => {
  db = openDatabase(':memory:')
  runMigrations(db, tablesMigrations)
  store = new SqliteTablesStore(db)
  store.createTable(BOT, { name: 'peopleTable', schema: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'number' }, email: { type: 'string' } }, required: ['name'] }, keyColumn: 'email' })
})

const count = () => store.getTable(BOT, 'peopleTable').rows

describe('importRows with a first row index', () => {
  it('numbers schema problems from firstRowIndex and writes nothing', () => {
    const error = thrown(() => store.importRows(BOT, 'peopleTable', [{ name: 'A' }, { name: 'B' }, { age: 'x' }], 1000))
    expect(error.type).toBe('InvalidDataFormat')
    expect(error.message).toBe('2 values do not fit the table schema; no row was written:\n  - rows.1002.age: expected number, received "x"\n  - rows.1002.name: required, received missing')
    expect((error.metadata!['issues'] as Array<{ path: string; row: number }>).map((i) => [i.path, i.row])).toEqual([['rows.1002.age', 1002], ['rows.1002.name', 1002]])
    expect(count()).toBe(0)
  })

  it('numbers a key conflict from firstRowIndex', () => {
    store.createRows(BOT, 'peopleTable', [{ name: 'A', email: 'a@x' }])
    const error = thrown(() => store.importRows(BOT, 'peopleTable', [{ name: 'B', email: 'b@x' }, { name: 'C', email: 'a@x' }], 500))
    expect([error.type, error.message]).toEqual(['AlreadyExists', 'rows.501.email: another row already has "a@x" in the key column "email"; no row was written'])
    expect(count()).toBe(1)
  })

  it('counts from 0 by default and inserts every row', () => {
    expect(thrown(() => store.importRows(BOT, 'peopleTable', [{ age: 1 }])).message).toContain('rows.0.name')
    expect(store.importRows(BOT, 'peopleTable', Array.from({ length: 1500 }, (_, i) => ({ name: `n${i}` })))).toEqual({ inserted: 1500, ids: Array.from({ length: 1500 }, (_, i) => i + 1), warnings: [] })
  })
})
