import { tablesLimits } from 'botshelf/api'
import { beforeEach, describe, expect, it } from 'vitest'
import { TablesStoreError } from '../../tables/errors.js'
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

const described = (error: TablesStoreError) => ({ type: error.type, code: error.code, message: error.message, metadata: error.metadata })
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

describe('checkRows', () => {
  it('accepts what importRows accepts, with the same warnings, and writes nothing', () => {
    const rows = [{ name: 'A', email: 'a@x', extra: 1 }, { name: 'B' }]
    expect(store.checkRows(BOT, 'peopleTable', rows, 0)).toEqual({ warnings: ['Column "extra" is not in the table schema; its values were ignored'] })
    expect(count()).toBe(0)
    expect(store.createRows(BOT, 'peopleTable', [{ name: 'first' }]).rows[0]!.id).toBe(1)
  })

  it('refuses what importRows refuses, with the same error, numbered from firstRowIndex', () => {
    store.createRows(BOT, 'peopleTable', [{ name: 'A', email: 'a@x' }])
    const refused = [
      [{ name: 'B' }, { name: 7, age: 'old' }],
      [{ name: 'B', email: 'a@x' }],
      [{ name: 'B', email: 'b@x' }, { name: 'C', email: 'c@x' }, { name: 'D', email: 'b@x' }],
      [{ name: 'x'.repeat(5000) }],
    ]
    for (const rows of refused) {
      const checked = thrown(() => store.checkRows(BOT, 'peopleTable', rows, 2000))
      expect(described(checked)).toEqual(described(thrown(() => store.importRows(BOT, 'peopleTable', rows, 2000))))
      expect(checked.message).toMatch(/rows\.200\d/)
    }
    expect(count()).toBe(1)
  })

  it('sees a key value already stored, and one repeated in the rows checked', () => {
    store.createRows(BOT, 'peopleTable', [{ name: 'A', email: 'a@x' }])
    expect(thrown(() => store.checkRows(BOT, 'peopleTable', [{ name: 'B', email: 'a@x' }], 10)).message).toBe(
      'rows.10.email: another row already has "a@x" in the key column "email"; no row was written',
    )
    expect(thrown(() => store.checkRows(BOT, 'peopleTable', [{ name: 'B', email: 'b@x' }, { name: 'C' }, { name: 'D', email: 'b@x' }], 0)).message).toBe(
      'rows.2.email: another row already has "b@x" in the key column "email"; no row was written',
    )
    expect(store.checkRows(BOT, 'peopleTable', [{ name: 'B' }, { name: 'C' }], 0)).toEqual({ warnings: [] })
  })

  it('sees that the table would run out of row ids, like importRows', () => {
    store.createRows(BOT, 'peopleTable', [{ name: 'A' }])
    const { physical } = store.loadTable(BOT, 'peopleTable')
    db.prepare('UPDATE sqlite_sequence SET seq = ? WHERE name = ?').run(tablesLimits.maxRowId - 2, physical)
    const rows = [{ name: 'B' }, { name: 'C' }, { name: 'D' }]
    const checked = thrown(() => store.checkRows(BOT, 'peopleTable', rows, 40))
    expect([checked.type, checked.message]).toEqual(['LimitExceeded', `rows.42: the table has used every row id up to ${tablesLimits.maxRowId}`])
    expect(described(checked)).toEqual(described(thrown(() => store.importRows(BOT, 'peopleTable', rows, 40))))
    expect(store.checkRows(BOT, 'peopleTable', rows.slice(0, 2), 40)).toEqual({ warnings: [] })
  })

  it('refuses an unknown table', () => {
    expect(thrown(() => store.checkRows(BOT, 'nopeTable', [{ name: 'A' }], 0)).type).toBe('ResourceNotFound')
  })
})
