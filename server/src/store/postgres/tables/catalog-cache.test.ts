import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import postgres from 'postgres'
import type { TablesPort } from '../../tables/tables-port.js'
import type { FindQuery, TableRecord } from '../../tables/types.js'
import { CatalogCache } from './catalog-cache.js'
import { createPostgresTablesPort } from './tables-port.js'
import { createTestDatabase, type TestDatabase } from './test-database.test-support.js'

// Finds on the pool keep catalog records (decision 0963); these tests change tables through a second port with a
// pool of its own, as a second server would, and check that the first port's finds see every change.

const BOT = 'bot_cache'
const now = () => new Date('2026-05-01T00:00:00.000Z')
let database: TestDatabase
let first: TablesPort
let second: TablesPort
let sql: postgres.Sql
let close: () => Promise<void>
let statements: string[]
let other: postgres.Sql

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.drop()
})
beforeEach(async () => {
  ;({ tables: second, sql, close } = await database.openTables(now))
  const schema = ((await sql.unsafe('SHOW search_path')) as unknown as Array<{ search_path: string }>)[0]!.search_path
  statements = []
  // The first "server": its own pool on the same schema, counting the statements it sends.
  other = postgres(database.url, { max: 2, onnotice: () => {}, connection: { search_path: schema }, debug: (_c, text) => statements.push(text) })
  first = createPostgresTablesPort(other, { now })
})
afterEach(async () => {
  await other.end()
  await close()
})

const values = async (ref: string, column: string) => (await first.findRows(BOT, ref, { orderBy: 'id' })).rows.map((r) => r[column])

describe('finds with a cached catalog record', () => {
  it('run in one statement once the table is known', async () => {
    await second.createTable(BOT, { name: 'ordersTable', schema: { total: 0 } })
    await second.createRows(BOT, 'ordersTable', [{ total: 1 }, { total: 2 }])
    expect(await values('ordersTable', 'total')).toEqual([1, 2])
    statements.length = 0
    expect(await values('ordersTable', 'total')).toEqual([1, 2])
    expect(statements).toHaveLength(1)
    statements.length = 0
    // No row matches: as likely a failed guard, so the catalog is read and the find runs again.
    expect((await first.findRows(BOT, 'ordersTable', { filter: { total: { $gt: 5 } } })).rows).toEqual([])
    expect(statements).toHaveLength(3)
    statements.length = 0
    // A group without keys answers one row even over no rows, and still only when the guard holds.
    expect((await first.findRows(BOT, 'ordersTable', { group: { total: 'sum' } })).rows).toEqual([{ totalSum: 3 }])
    expect(statements).toHaveLength(1)
  })

  it('see a schema change made through another port', async () => {
    await second.createTable(BOT, { name: 'ordersTable', schema: { total: 0 } })
    await second.createRows(BOT, 'ordersTable', [{ total: 1 }])
    expect(await values('ordersTable', 'total')).toEqual([1])
    await second.updateTable(BOT, 'ordersTable', { schema: { note: { type: 'string' } } })
    await second.updateRows(BOT, 'ordersTable', [{ id: 1, note: 'hello' }])
    expect(await values('ordersTable', 'note')).toEqual(['hello'])
    // A filter on the new column is valid at once, and a column removed elsewhere is gone from the answer.
    expect((await first.findRows(BOT, 'ordersTable', { filter: { note: 'hello' } })).rows).toHaveLength(1)
    await second.updateTable(BOT, 'ordersTable', { schema: { total: null } })
    const [row] = (await first.findRows(BOT, 'ordersTable', {})).rows
    expect(row).toMatchObject({ note: 'hello' })
    expect(row).not.toHaveProperty('total')
    await second.renameColumn(BOT, 'ordersTable', 'note', 'remark')
    expect(await values('ordersTable', 'remark')).toEqual(['hello'])
  })

  it('follow a rename, a delete, and a new table of the same name', async () => {
    const created = await second.createTable(BOT, { name: 'ordersTable', schema: { total: 0 } })
    await second.createRows(BOT, 'ordersTable', [{ total: 1 }])
    expect(await values('ordersTable', 'total')).toEqual([1])
    expect(await values(created.id, 'total')).toEqual([1])

    await second.updateTable(BOT, 'ordersTable', { name: 'archiveTable' })
    await expect(first.findRows(BOT, 'ordersTable', {})).rejects.toMatchObject({ code: 'TABLE_NOT_FOUND' })
    expect(await values('archiveTable', 'total')).toEqual([1])
    expect(await values(created.id, 'total')).toEqual([1])

    // Another table takes the old name: the name now means it.
    await second.createTable(BOT, { name: 'ordersTable', schema: { label: '' } })
    await second.createRows(BOT, 'ordersTable', [{ label: 'new' }])
    expect(await values('ordersTable', 'label')).toEqual(['new'])

    await second.deleteTable(BOT, 'ordersTable')
    await expect(first.findRows(BOT, 'ordersTable', {})).rejects.toMatchObject({ code: 'TABLE_NOT_FOUND' })
    await second.deleteTable(BOT, created.id)
    await expect(first.findRows(BOT, created.id, {})).rejects.toMatchObject({ code: 'TABLE_NOT_FOUND' })
    await expect(first.findRows(BOT, 'archiveTable', {})).rejects.toMatchObject({ code: 'TABLE_NOT_FOUND' })

    // Recreated with the same name and the same schema: the old table's rows are not read.
    await second.createTable(BOT, { name: 'archiveTable', schema: { total: 0 } })
    await second.createRows(BOT, 'archiveTable', [{ total: 7 }])
    expect(await values('archiveTable', 'total')).toEqual([7])
  })

  it('count the rows of the table a name now means, for a group without keys', async () => {
    await second.createTable(BOT, { name: 'ordersTable', schema: { total: 0 } })
    await second.createRows(BOT, 'ordersTable', [{ total: 2 }, { total: 5 }])
    const count = async () => (await first.findRows(BOT, 'ordersTable', { group: { total: 'count' } })).rows
    expect(await count()).toEqual([{ totalCount: 2 }])
    await second.updateTable(BOT, 'ordersTable', { name: 'archiveTable' })
    await second.createTable(BOT, { name: 'ordersTable', schema: { total: 0 } })
    expect(await count()).toEqual([{ totalCount: 0 }])
  })

  it('keep counting rows written elsewhere without reloading the record', async () => {
    await second.createTable(BOT, { name: 'ordersTable', schema: { total: 0 } })
    expect(await values('ordersTable', 'total')).toEqual([])
    await second.createRows(BOT, 'ordersTable', [{ total: 3 }])
    statements.length = 0
    // Row writes move the last row id, not the version: the entry stays valid.
    expect(await values('ordersTable', 'total')).toEqual([3])
    expect(statements).toHaveLength(1)
  })

  it('are not cached in a transaction-bound port, which sees its own uncommitted schema', async () => {
    await second.createTable(BOT, { name: 'ordersTable', schema: { total: 0 } })
    expect(await values('ordersTable', 'total')).toEqual([])
    await other.begin(async (tx) => {
      const inTx = createPostgresTablesPort(tx, { now })
      await inTx.updateTable(BOT, 'ordersTable', { schema: { note: '' } })
      await inTx.createRows(BOT, 'ordersTable', [{ total: 1, note: 'x' }])
      expect((await inTx.findRows(BOT, 'ordersTable', {})).rows[0]).toMatchObject({ note: 'x' })
    })
    expect(await values('ordersTable', 'note')).toEqual(['x'])
  })

  it('keep a group and a search answer as without the cache', async () => {
    await second.createTable(BOT, { name: 'ordersTable', schema: { kind: { type: 'string' }, total: { type: 'number' }, note: { type: 'string', 'x-zui': { searchable: true } } } })
    await second.createRows(BOT, 'ordersTable', [
      { kind: 'a', total: 1, note: 'red apple' },
      { kind: 'b', total: 2, note: 'green apple' },
      { kind: 'a', total: 3, note: 'red cherry' },
    ])
    const uncached = createPostgresTablesPort(other, { now, findCatalogCacheSize: 0 })
    const queries: FindQuery[] = [
      { group: { kind: 'key', total: ['sum', 'count'] }, orderBy: 'kind' },
      { search: 'red', orderBy: 'total', orderDirection: 'desc' as const },
      { filter: { total: { $gte: 2 } }, limit: 1, offset: 1 },
    ]
    for (const q of queries) {
      await first.findRows(BOT, 'ordersTable', q)
      expect(await first.findRows(BOT, 'ordersTable', q)).toEqual(await uncached.findRows(BOT, 'ordersTable', q))
    }
  })
})

describe('CatalogCache', () => {
  const record = (name: string) => ({ id: `table_${name}`, name }) as TableRecord

  it('keeps at most its capacity, dropping the least recently used', () => {
    const cache = new CatalogCache(2)
    cache.set('bot', 'a', { record: record('a'), version: '0', byName: true })
    cache.set('bot', 'b', { record: record('b'), version: '0', byName: true })
    expect(cache.get('bot', 'a')?.record.name).toBe('a')
    cache.set('bot', 'c', { record: record('c'), version: '0', byName: true })
    expect(cache.size).toBe(2)
    expect(cache.get('bot', 'b')).toBeUndefined()
    expect(cache.get('bot', 'a')?.record.name).toBe('a')
    expect(cache.get('bot', 'c')?.record.name).toBe('c')
  })

  it('keys by bot and reference, and keeps nothing at capacity 0', () => {
    const cache = new CatalogCache(10)
    cache.set('bot1', 'a', { record: record('a'), version: '1', byName: true })
    expect(cache.get('bot2', 'a')).toBeUndefined()
    cache.delete('bot1', 'a')
    expect(cache.get('bot1', 'a')).toBeUndefined()
    const none = new CatalogCache(0)
    none.set('bot', 'a', { record: record('a'), version: '0', byName: true })
    expect(none.size).toBe(0)
    expect(() => new CatalogCache(-1)).toThrow(/expected an integer of 0 or more, received -1/)
  })
})
