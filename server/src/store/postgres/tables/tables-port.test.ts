import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { eventually } from '../../../../../test/helpers/eventually.js'
import type postgres from 'postgres'
import type { TablesPort } from '../../tables/tables-port.js'
import { createPostgresTablesPort } from './tables-port.js'
import { createTestDatabase, type TestDatabase } from './test-database.test-support.js'

// What the PostgreSQL port adds to the contract: transactions it is bound to, concurrent writers, the bounds of
// `$regex` work, and values PostgreSQL cannot hold.

const BOT = 'bot_pg'
let database: TestDatabase
let tables: TablesPort
let sql: postgres.Sql
let close: () => Promise<void>
const now = () => new Date('2026-05-01T00:00:00.000Z')

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.drop()
})
beforeEach(async () => {
  ;({ tables, sql, close } = await database.openTables(now))
})
afterEach(async () => {
  await close()
})

async function refusal(call: Promise<unknown>): Promise<{ type: string; code: string; message: string }> {
  const error = await call.then(
    () => new Error('expected a refusal'),
    (reason: unknown) => reason,
  )
  expect(error).toMatchObject({ name: 'TablesStoreError' })
  return error as { type: string; code: string; message: string }
}

describe('a port bound to a transaction', () => {
  it('keeps the transaction usable after a refused write, and leaves nothing when it rolls back', async () => {
    const rollback = new Error('roll back')
    await expect(
      sql.begin(async (tx) => {
        const inTx = createPostgresTablesPort(tx, { now })
        await inTx.createTable(BOT, { name: 'ordersTable', schema: { total: 0, ref: '' }, keyColumn: 'ref' })
        await inTx.createRows(BOT, 'ordersTable', [{ total: 1, ref: 'a' }])
        // Refused inside its savepoint: the transaction goes on.
        expect(await refusal(inTx.createRows(BOT, 'ordersTable', [{ total: 2, ref: 'b' }, { total: 3, ref: 'a' }]))).toMatchObject({ code: 'KEY_CONFLICT' })
        expect((await inTx.createRows(BOT, 'ordersTable', [{ total: 4, ref: 'c' }])).rows[0]!.id).toBe(2)
        // Another connection does not see it before the commit.
        await expect(tables.getTable(BOT, 'ordersTable')).rejects.toMatchObject({ code: 'TABLE_NOT_FOUND' })
        throw rollback
      }),
    ).rejects.toBe(rollback)
    await expect(tables.getTable(BOT, 'ordersTable')).rejects.toMatchObject({ code: 'TABLE_NOT_FOUND' })
    const leftovers = await sql.unsafe(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'ut\\_%'`)
    expect(leftovers[0]!['n']).toBe(0)
  })

  it('commits with the transaction', async () => {
    await sql.begin(async (tx) => {
      const inTx = createPostgresTablesPort(tx, { now })
      await inTx.createTable(BOT, { name: 'ordersTable', schema: { total: 0 } })
      await inTx.createRows(BOT, 'ordersTable', [{ total: 1 }])
    })
    expect((await tables.getTable(BOT, 'ordersTable')).rows).toBe(1)
  })
})

describe('concurrent calls on the pool', () => {
  it('hands out distinct, consecutive row ids to concurrent writers of one table', async () => {
    await tables.createTable(BOT, { name: 'ordersTable', schema: { total: 0 } })
    const batches = await Promise.all(Array.from({ length: 6 }, (_, b) => tables.createRows(BOT, 'ordersTable', Array.from({ length: 10 }, (_, i) => ({ total: b * 10 + i })))))
    const ids = batches.flatMap((b) => b.rows.map((r) => r.id)).sort((a, b) => a - b)
    expect(ids).toEqual(Array.from({ length: 60 }, (_, i) => i + 1))
    expect((await tables.getTable(BOT, 'ordersTable')).rows).toBe(60)
  })

  it('creates a table once when getOrCreateTable races itself', async () => {
    const results = await Promise.all(Array.from({ length: 4 }, () => tables.getOrCreateTable(BOT, 'racedTable', { schema: { n: 0 } })))
    expect(results.filter((r) => r.created)).toHaveLength(1)
    expect(new Set(results.map((r) => r.table.id)).size).toBe(1)
  })
})

describe('$regex on PostgreSQL', () => {
  beforeEach(async () => {
    await tables.createTable(BOT, { name: 'notesTable', schema: { body: '', small: true }, factor: 30 })
    await tables.createRows(BOT, 'notesTable', [
      { body: 'ab'.repeat(50_000), small: false },
      { body: 'alpha', small: true },
      { body: 'beta', small: true },
    ])
  })

  it('runs RE2, not PostgreSQL regular expressions', async () => {
    // The long value alone would exceed the budget (as on SQLite): these filters keep the small rows.
    const find = async (body: unknown) => (await tables.findRows(BOT, 'notesTable', { filter: { small: true, body }, select: ['small'] })).rows.map((r) => r.id)
    // RE2 syntax PostgreSQL reads otherwise or not at all: Unicode classes, `\z`, and `(?U)` (ungreedy).
    expect(await find({ $regex: '^\\pL+$' })).toEqual([2, 3])
    expect(await find({ $regex: 'ha\\z' })).toEqual([2])
    expect(await find({ $regex: '(?U)^b.*a$' })).toEqual([3])
    expect(await find({ $regex: '^ALPHA$', $options: 'i' })).toEqual([2])
    expect(await find({ $not: { $regex: 'ta$' } })).toEqual([2])
  })

  it('refuses a pattern whose matches could overrun the query budget, before matching', async () => {
    const error = await refusal(tables.findRows(BOT, 'notesTable', { filter: { body: { $regex: '(.*a){190}' } } }))
    expect(error).toMatchObject({ type: 'InvalidQuery', code: 'INVALID_QUERY' })
    expect(error.message).toMatch(/^filter\.body\.\$regex: the \$regex filter needs more work than allowed: a pattern of \d+ instructions against a value of 100000 characters/)
    await refusal(tables.deleteRows(BOT, 'notesTable', { filter: { body: { $regex: '(.*a){190}' } } }))
    expect((await tables.getTable(BOT, 'notesTable')).rows).toBe(3)
  })

  it('matches only the values of rows its AND siblings keep', async () => {
    const { rows } = await tables.findRows(BOT, 'notesTable', { filter: { small: true, body: { $regex: '(.*a){190}' } } })
    expect(rows).toEqual([])
    const either = await tables.findRows(BOT, 'notesTable', { filter: { $and: [{ small: true }, { $or: [{ body: { $regex: '(.*a){2}' } }, { body: 'beta' }] }] } })
    expect(either.rows.map((r) => r.id)).toEqual([2, 3])
  })
})

describe('values PostgreSQL cannot hold', () => {
  it('refuses text with U+0000 in rows and filters, naming where', async () => {
    await tables.createTable(BOT, { name: 'textsTable', schema: { name: '', meta: { a: 1 } } })
    const error = await refusal(tables.createRows(BOT, 'textsTable', [{ name: 'ok' }, { name: 'a\u0000b' }, { meta: { a: 'x\u0000' } }]))
    expect(error).toMatchObject({ type: 'InvalidDataFormat', code: 'INVALID_ROW' })
    expect(error.message).toContain('rows.1.name')
    expect(error.message).toContain('rows.2.meta')
    expect((await tables.getTable(BOT, 'textsTable')).rows).toBe(0)
    expect(await refusal(tables.findRows(BOT, 'textsTable', { filter: { name: 'a\u0000' } }))).toMatchObject({ type: 'InvalidQuery', message: expect.stringContaining('U+0000') })
  })
})

describe('reads racing a schema change', () => {
  it('reads again when a column it named was dropped by a change that committed meanwhile', async () => {
    await tables.createTable(BOT, { name: 'racedTable', schema: { a: 'x', b: 'y' } })
    await tables.createRows(BOT, 'racedTable', [{ a: '1', b: '2' }])
    let commit!: () => void
    let changed!: () => void
    const release = new Promise<void>((resolve) => (commit = resolve))
    const applied = new Promise<void>((resolve) => (changed = resolve))
    const change = sql.begin(async (tx) => {
      await createPostgresTablesPort(tx, { now }).updateTable(BOT, 'racedTable', { schema: { b: null } })
      changed()
      await release
    })
    // The change holds the rows table: the read gets the old catalog, then waits for the table.
    const waitForLock = () =>
      eventually(async () => {
        const [row] = await sql.unsafe(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)
        return (row!['n'] as number) > 0 ? true : undefined
      }, 'the read waiting for the change')
    await applied
    const read = tables.findRows(BOT, 'racedTable', {})
    await waitForLock()
    commit()
    await change
    const { rows } = await read
    expect(rows).toEqual([expect.objectContaining({ id: 1, a: '1' })])
    expect(rows[0]).not.toHaveProperty('b')
  })
})

describe('array columns', () => {
  it('match an element of the same JSON type only, as MongoDB does (decision 0405)', async () => {
    await tables.createTable(BOT, { name: 'listsTable', schema: { l: { type: 'array' } } })
    await tables.createRows(BOT, 'listsTable', [{ l: [1] }, { l: [true] }, { l: ['1'] }, { l: [1.5, false, { a: 1 }] }, { l: [] }, {}])
    const find = async (filter: Record<string, unknown>) => (await tables.findRows(BOT, 'listsTable', { filter })).rows.map((r) => r.id)
    expect(await find({ l: 1 })).toEqual([1])
    expect(await find({ l: true })).toEqual([2])
    expect(await find({ l: '1' })).toEqual([3])
    expect(await find({ l: { $in: [false, 1.5] } })).toEqual([4])
    expect(await find({ l: { $nin: [1, true] } })).toEqual([3, 4, 5, 6])
    expect(await find({ l: { $size: 0 } })).toEqual([5])
  })
})

describe('the plans of finds', () => {
  // The order of a find walks an index instead of sorting every matching row: `id` and the timestamps take no NULLS
  // clause (never NULL), and the user columns' indexes are built NULLS FIRST, the order finds ask for both ways.
  it('walks the primary key and the column indexes for the order, in both directions', async () => {
    await tables.createTable(BOT, { name: 'bigTable', schema: { amount: 0, label: '' } })
    const { physical, physicalMap } = await tables.loadTable(BOT, 'bigTable')
    const [amount, label] = [physicalMap['amount']!, physicalMap['label']!]
    await sql.unsafe(`INSERT INTO "${physical}" (id, created_at, updated_at, "${amount}", "${label}")
      SELECT g, '2026-05-01T00:00:00.000Z', '2026-05-01T00:00:00.000Z', CASE WHEN g % 10 = 0 THEN NULL ELSE g % 1000 END, 'row ' || g
      FROM generate_series(1, 20000) g`)
    await sql.unsafe(`ANALYZE "${physical}"`)
    const { compileFind } = await import('./find.js')
    const { runtimeOf } = await import('./runtime.js')
    const { planFind } = await import('../../tables/find/index.js')
    const rt = runtimeOf(await tables.loadTable(BOT, 'bigTable'))
    const planOf = async (request: Parameters<TablesPort['findRows']>[2]) => {
      const compiled = compileFind(rt, planFind(rt, request))
      const rows = await sql.unsafe(`EXPLAIN ${compiled.sql}`, compiled.params as never[])
      return rows.map((row) => String(row['QUERY PLAN'])).join('\n')
    }
    for (const request of [
      { filter: { amount: { $gte: 500 } }, limit: 20 },
      { orderBy: 'id', orderDirection: 'desc' as const, limit: 20 },
      { orderBy: 'amount', limit: 20 },
      { orderBy: 'amount', orderDirection: 'desc' as const, limit: 100 },
    ]) {
      const plan = await planOf(request)
      expect(plan, JSON.stringify(request)).toMatch(/Index Scan/)
      expect(plan, JSON.stringify(request)).not.toMatch(/^\s*(->\s*)?Sort  \(/m)
    }
    // The answers keep SQLite's order: NULL first going up, last going down.
    const up = await tables.findRows(BOT, 'bigTable', { orderBy: 'amount', limit: 3 })
    expect(up.rows.map((row) => row['amount'])).toEqual([null, null, null])
    const down = await tables.findRows(BOT, 'bigTable', { orderBy: 'amount', orderDirection: 'desc', limit: 2 })
    expect(down.rows.map((row) => [row['amount'], row['id']])).toEqual([[999, 999], [999, 1999]])
  })

  // A whole-table count is the engine's plain `count(*)`: no `WHERE true`, no column read (decision 1479).
  it('counts a whole table with a plain count(*), and a column with its values', async () => {
    await tables.createTable(BOT, { name: 'countedTable', schema: { amount: 0 } })
    await tables.createRows(BOT, 'countedTable', [{ amount: 1 }, {}, { amount: 3 }])
    const { compileFind } = await import('./find.js')
    const { runtimeOf } = await import('./runtime.js')
    const { planFind } = await import('../../tables/find/index.js')
    const rt = runtimeOf(await tables.loadTable(BOT, 'countedTable'))
    const statement = (request: Parameters<TablesPort['findRows']>[2]) => compileFind(rt, planFind(rt, request)).sql
    expect(statement({ group: { id: 'count' } })).toMatch(/^SELECT count\(\*\)::int AS g0 FROM "[^"]+" t LIMIT \$1::int OFFSET \$2::int$/)
    expect(statement({ filter: {}, group: { updatedAt: 'count' } })).not.toMatch(/WHERE/)
    expect(statement({ group: { amount: 'count' } })).toMatch(/^SELECT count\(t\."c1"\)::int AS g0 /)
    const [explained] = await sql.unsafe(`EXPLAIN (FORMAT JSON) ${statement({ group: { id: 'count' } })}`, [2, 0])
    expect(JSON.stringify(explained)).not.toMatch(/"Filter"/)
    expect((await tables.findRows(BOT, 'countedTable', { group: { id: 'count', amount: 'count' } })).rows).toEqual([{ idCount: 3, amountCount: 2 }])
    expect((await tables.findRows(BOT, 'countedTable', { group: { id: 'count' }, offset: 1 })).rows).toEqual([])
  })
})

describe('row ids taken with the catalog lock', () => {
  it('hands out consecutive ids, refuses the rows past the last id, and gives refused ids back', async () => {
    await tables.createTable(BOT, { name: 'idsTable', schema: { n: 0 } })
    expect((await tables.createRows(BOT, 'idsTable', [{ n: 1 }, { n: 2 }])).rows.map((row) => row.id)).toEqual([1, 2])
    const { id } = await tables.loadTable(BOT, 'idsTable')
    await sql.unsafe('UPDATE tables_catalog SET last_row_id = 2147483645 WHERE id = $1', [id])
    // Three rows, two ids left: refused as a whole, naming the first row that has no id, and nothing taken.
    expect(await refusal(tables.createRows(BOT, 'idsTable', [{ n: 3 }, { n: 4 }, { n: 5 }]))).toMatchObject({ code: 'LIMIT_EXCEEDED', message: expect.stringContaining('rows.2:') })
    const [counter] = await sql.unsafe('SELECT last_row_id FROM tables_catalog WHERE id = $1', [id])
    expect(counter!['last_row_id']).toBe(2147483645)
    expect((await tables.createRows(BOT, 'idsTable', [{ n: 6 }, { n: 7 }])).rows.map((row) => row.id)).toEqual([2147483646, 2147483647])
    expect((await tables.getTable(BOT, 'idsTable')).rows).toBe(4)
  })
})
