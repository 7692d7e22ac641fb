import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import postgres from 'postgres'
import type { TablesPort } from '../../tables/tables-port.js'
import { DEFAULT_PREPARED_TEXTS } from '../prepared-texts.js'
import { createPostgresTablesPort } from './tables-port.js'
import { createTestDatabase, type TestDatabase } from './test-database.test-support.js'

// Find texts run prepared once they repeat, within a bound per connection (decision 0964). The port under test runs
// on a pool of one connection, so `pg_prepared_statements` (per session) lists everything it prepared.

const BOT = 'bot_prepared'
const now = () => new Date('2026-05-01T00:00:00.000Z')
let database: TestDatabase
let writer: TablesPort
let one: postgres.Sql
let port: TablesPort
let close: () => Promise<void>

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.drop()
})
beforeEach(async () => {
  let sql: postgres.Sql
  ;({ tables: writer, sql, close } = await database.openTables(now))
  const schema = ((await sql.unsafe('SHOW search_path')) as unknown as Array<{ search_path: string }>)[0]!.search_path
  one = postgres(database.url, { max: 1, onnotice: () => {}, connection: { search_path: schema } })
  port = createPostgresTablesPort(one, { now })
  await writer.createTable(BOT, { name: 'ordersTable', schema: { total: 0 } })
  await writer.createRows(BOT, 'ordersTable', Array.from({ length: 30 }, (_, i) => ({ total: i + 1 })))
})
afterEach(async () => {
  await one.end()
  await close()
})

/** The find statements prepared on the one connection: those reading a user table (this query's text names none). */
async function preparedFinds(): Promise<string[]> {
  const rows = await one.unsafe(`SELECT statement FROM pg_prepared_statements WHERE strpos(statement, 'FROM "' || 'ut_') > 0`)
  return rows.map((r) => String(r['statement']))
}

const totals = async (filter: Record<string, unknown>, limit = 100) => (await port.findRows(BOT, 'ordersTable', { filter, limit, orderBy: 'id' })).rows.map((r) => r['total'])
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)

describe('prepared finds on PostgreSQL', () => {
  it('prepare a find from its third run on, one statement for the same filter with other values', async () => {
    expect(await totals({ total: { $gte: 10 } }, 5)).toEqual(range(10, 14))
    expect(await totals({ total: { $gte: 11 } }, 5)).toEqual(range(11, 15))
    expect(await preparedFinds()).toEqual([])
    expect(await totals({ total: { $gte: 12 } }, 5)).toEqual(range(12, 16))
    expect(await totals({ total: { $gte: 28 } }, 5)).toEqual(range(28, 30))
    const prepared = await preparedFinds()
    expect(prepared).toHaveLength(1)
    // Values are parameters, never in the text.
    expect(prepared[0]).toContain('>= $1::float8')
    expect(prepared[0]).not.toMatch(/\b(12|28)\b/)
  })

  it('keep at most the promotions of the window prepared on a connection, and answer every find right', async () => {
    const texts = DEFAULT_PREPARED_TEXTS.promotionsPerWindow + 16
    for (let k = 1; k <= texts; k++) {
      // k conditions: k distinct texts, each run three times (an empty page, from k = 31, also runs the find
      // again without the catalog check after reading the catalog: a second text).
      const filter = { $and: range(1, k).map((j) => ({ total: { $gte: j } })) }
      for (let run = 0; run < 3; run++) expect(await totals(filter)).toEqual(range(k, 30))
    }
    expect(await preparedFinds()).toHaveLength(DEFAULT_PREPARED_TEXTS.promotionsPerWindow)
  })

  it('answer on the schema as it now is after a column is added or dropped elsewhere', async () => {
    for (let run = 0; run < 4; run++) expect(await totals({ total: { $lte: 2 } })).toEqual([1, 2])
    expect(await preparedFinds()).toHaveLength(1)
    await writer.updateTable(BOT, 'ordersTable', { schema: { note: { type: 'string' } } })
    await writer.updateRows(BOT, 'ordersTable', [{ id: 1, note: 'first' }])
    const rows = async () => (await port.findRows(BOT, 'ordersTable', { filter: { total: { $lte: 2 } } })).rows
    for (let run = 0; run < 4; run++) expect((await rows()).map((r) => r['note'])).toEqual(['first', null])
    await writer.updateTable(BOT, 'ordersTable', { schema: { note: null } })
    for (let run = 0; run < 2; run++) {
      const [row] = await rows()
      expect(row).toMatchObject({ total: 1 })
      expect(row).not.toHaveProperty('note')
    }
  })
})
