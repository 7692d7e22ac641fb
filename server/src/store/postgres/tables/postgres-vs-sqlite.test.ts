import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Backend } from '../../backend.js'
import { openSqliteBackend } from '../../sqlite/backend.js'
import { Gen, mulberry32, SCHEMA } from '../../tables/tables-port.oracle.js'
import type { TablesPort } from '../../tables/tables-port.js'
import { createTestDatabase, type TestDatabase } from './test-database.test-support.js'

/*
 * The same calls on SQLite and on PostgreSQL answer the same JSON, byte for byte: rows (dates, numbers, nested
 * objects in their key order), pages, groups and errors. SQLite is the reference the PostgreSQL port must match.
 */

const START = Date.parse('2026-03-01T08:00:00.000Z')
const BOT = 'bot_same'
// Text that sorts differently bytewise than in most locales, and values JSON keeps as written.
const STRINGS = ['a', 'B', 'b', 'Z', 'é', 'e', 'Ä', '😀', 'a b', 'a_b', '', '10', '9']

let database: TestDatabase
let sqlite: Backend
let postgres: { tables: TablesPort; close(): Promise<void> }
let current = START
const now = () => new Date(current)

beforeAll(async () => {
  database = await createTestDatabase()
  postgres = await database.openTables(now)
  sqlite = await openSqliteBackend({ memory: true, now })
})
afterAll(async () => {
  await sqlite?.close()
  await postgres?.close()
  await database?.drop()
})

/** Table ids are random: the same on both sides once masked. */
const masked = (json: string) => json.replace(/table_[0-9A-Z]{26}/g, 'table_<id>')

/** Runs a call on both ports: the same JSON result, or the same error type, code and message. */
async function same<T>(call: (tables: TablesPort) => Promise<T>): Promise<T> {
  const settle = async (tables: TablesPort) =>
    call(tables).then(
      (value) => ({ ok: masked(JSON.stringify(value)) }),
      (error: unknown) => ({ error: masked(JSON.stringify({ name: (error as Error).name, message: (error as Error).message, ...(error as object) })) }),
    )
  const [a, b] = [await settle(sqlite.tables), await settle(postgres.tables)]
  expect(b).toEqual(a)
  if ('error' in a) throw new Error(`both refused: ${a.error}`)
  return JSON.parse(a.ok!) as T
}

function richRow(gen: Gen): Record<string, unknown> {
  const row = gen.row()
  if (gen.chance(0.5)) row['s1'] = gen.pick(STRINGS)
  if (gen.chance(0.3)) row['n2'] = gen.pick([0.1, -1.5e-7, 1e21, 123456.789, -0.25, 2 ** 53])
  if (gen.chance(0.3)) row['obj'] = { z: gen.pick(STRINGS), a: { y: gen.int(0, 3), b: [1, 'x', true, null] }, m: null }
  if (gen.chance(0.2)) row['d'] = gen.pick(['2026-01-01', '2026-01-01T10:00:00+02:00', '1815-12-10T00:00:00.5Z'])
  return row
}

describe('PostgreSQL answers as SQLite does', () => {
  for (let seed = 1; seed <= 8; seed++) {
    it(`seed ${seed}: rows, filters, pages and groups are the same JSON`, async () => {
      const gen = new Gen(mulberry32(1000 + seed))
      const name = `same${seed}Table`
      await same((t) => t.createTable(BOT, { name, schema: { type: 'object', properties: { ...SCHEMA, s2: { type: 'string', 'x-zui': { searchable: true } } } } }))
      current += 1_000
      const rows = Array.from({ length: gen.int(20, 50) }, () => richRow(gen))
      await same((t) => t.createRows(BOT, name, rows))
      current += 1_000
      // Random values are drawn once, outside the calls, so both sides get the same.
      const patch = [{ id: 1, s1: gen.pick(STRINGS), obj: { k: [{ b: 1, a: 2 }] } }, { id: 2, n1: null }]
      await same((t) => t.updateRows(BOT, name, patch))
      for (let q = 0; q < 15; q++) {
        const filter = gen.filter()
        const orderBy = gen.pick(['id', 's1', 'n2', 'b', 'd', 'updatedAt'])
        const orderDirection = gen.pick(['asc', 'desc'] as const)
        const page = { limit: gen.int(1, 60), offset: gen.int(0, 5) }
        await same((t) => t.findRows(BOT, name, { filter, orderBy, orderDirection, ...page }))
        await same((t) => t.findRows(BOT, name, { filter, select: ['obj.a.y', 's1'], orderBy: 's1' }))
      }
      for (const key of ['s1', 'b', 'd'] as const) {
        // `unique` is in no particular order (docs/tables-api.md): compared sorted.
        const result = await same(async (t) => {
          const found = await t.findRows(BOT, name, { group: { [key]: 'key', n1: ['count', 'sum', 'avg', 'min', 'max'], s2: ['min', 'max', 'unique'] }, orderBy: 'n1Count', orderDirection: 'desc' })
          return { ...found, rows: found.rows.map((row) => ({ ...row, s2Unique: [...(row['s2Unique'] as string[])].sort() })) }
        })
        expect(result.rows.length).toBeGreaterThan(0)
      }
      await same((t) => t.findRows(BOT, name, { group: { b: 'key', id: ['count', 'sum', 'avg', 'min', 'max'], createdAt: ['min', 'max'] } }))
      await same((t) => t.findRows(BOT, name, { filter: { s1: { $gt: 'Z' } }, orderBy: 's1', orderDirection: 'desc' }))
      await same((t) => t.findRows(BOT, name, { filter: { 'obj.a.y': { $gte: 1 } } }))
      const doomed = gen.filter()
      await same((t) => t.deleteRows(BOT, name, { filter: doomed }))
      await same((t) => t.findRows(BOT, name, { limit: 1000 }))
    })
  }

  it('refuses bad filters, orders and groups with the same messages', async () => {
    await same((t) => t.createTable(BOT, { name: 'errorsTable', schema: { a: 'x', n: 1, o: { k: 1 } } }))
    for (const query of [
      { filter: { n: 'x' } },
      { filter: { a: { $regex: '(' } } },
      { filter: { 'o.k': { $size: -1 } } },
      { filter: { n: { $mod: [0, 1] } } },
      { filter: { a: { $regex: '(a+)+$', $options: 'q' } } },
      { orderBy: 'o' },
      { group: { a: 'sum' } },
      { search: 'x' },
    ]) {
      await expect(same((t) => t.findRows(BOT, 'errorsTable', query as never))).rejects.toThrow(/both refused/)
    }
  })
})

describe('PostgreSQL changes tables as SQLite does', () => {
  it('converts, checks, renames, searches, duplicates, upserts and imports with the same answers', async () => {
    current += 10_000
    const schema = { title: { type: 'string', 'x-zui': { searchable: true } }, score: { type: 'number' }, code: { type: 'string' }, flag: { type: 'boolean' } }
    await same((t) => t.createTable(BOT, { name: 'changesTable', schema }))
    const rows = [
      { title: 'March invoices Éléonore', score: 12.5, code: 'A-1', flag: true },
      { title: 'Eleonore à Noël', score: 1 },
      { title: 'april_report draft', score: 3, code: 'B-2' },
      { title: 'Invoices for May', code: '17', flag: false },
      { title: 'misc', score: -0.5 },
    ]
    await same((t) => t.createRows(BOT, 'changesTable', rows))
    current += 1_000
    // A type change resets the values (as Botpress does); a string made date-time is refused by values that do not read as one.
    await same((t) => t.updateTable(BOT, 'changesTable', { schema: { score: { type: 'string' } } }))
    await expect(same((t) => t.updateTable(BOT, 'changesTable', { schema: { code: { type: 'string', format: 'date-time' } } }))).rejects.toThrow(/both refused/)
    await expect(same((t) => t.updateTable(BOT, 'changesTable', { schema: { code: { type: 'string', pattern: '^[A-Z]-\\d$' } } }))).rejects.toThrow(/both refused/)
    await expect(same((t) => t.updateTable(BOT, 'changesTable', { schema: { code: { type: 'string', enum: ['A-1', 'B-2'] } } }))).rejects.toThrow(/both refused/)
    // `flag` keeps its type (a type change would reset it to null, and the grouping below needs its values).
    await same((t) => t.updateTable(BOT, 'changesTable', { schema: { flag: { type: 'boolean', description: 'set' }, extra: { type: 'object' } } }))
    await same((t) => t.findRows(BOT, 'changesTable', { orderBy: 'score' }))
    await same((t) => t.renameColumn(BOT, 'changesTable', 'title', 'heading'))
    for (const search of ['invoices', 'april', 'april_report', 'MAY misc', 'nothing', 'eleonore', 'ÉLÉONORE', 'noel', 'a']) {
      // The same rows match; the similarity is each engine's own score (bm25 on SQLite, ts_rank here), in (0, 1).
      const result = await same(async (t) => {
        const found = await t.findRows(BOT, 'changesTable', { search, select: ['heading'], orderBy: 'id' })
        for (const row of found.rows) expect(row.similarity).toBeGreaterThan(0)
        for (const row of found.rows) expect(row.similarity).toBeLessThan(1)
        return { ...found, rows: found.rows.map(({ similarity: _s, ...row }) => row) }
      })
      if (search !== 'nothing') expect(result.rows.length).toBeGreaterThan(0)
    }
    await same((t) => t.findRows(BOT, 'changesTable', { search: 'invoices may', group: { flag: 'key', code: ['count', 'unique'] } }))
    await same((t) => t.findRows(BOT, 'changesTable', { search: 'invoices', filter: { code: { $regex: '^A' } } }).then((r) => r.rows.map((row) => row.id)))
    await same((t) => t.updateTable(BOT, 'changesTable', { keyColumn: 'code' }))
    await same((t) => t.upsertRows(BOT, 'changesTable', [{ code: 'A-1', heading: 'changed' }, { code: 'C-3', heading: 'new' }], 'code'))
    await expect(same((t) => t.createRows(BOT, 'changesTable', [{ code: 'Z' }, { code: 'A-1' }]))).rejects.toThrow(/both refused/)
    await same((t) => t.importRows(BOT, 'changesTable', Array.from({ length: 30 }, (_, i) => ({ code: `I-${i}`, score: String(i) })), 5))
    await same((t) => t.duplicateTable(BOT, 'changesTable', { tableName: 'changesCopyTable' }))
    await same((t) => t.createRows(BOT, 'changesCopyTable', [{ code: 'after-copy' }]))
    await same((t) => t.findRows(BOT, 'changesCopyTable', { limit: 1000 }))
    await same((t) => t.getTable(BOT, 'changesCopyTable'))
  })
})

describe('PostgreSQL writes batches as SQLite does, row by row', () => {
  it('upserts and updates with the same outcome, refusals and rows', async () => {
    current += 10_000
    const schema = { email: { type: 'string' }, name: { type: 'string' }, n: { type: 'number' }, when: { type: 'string', format: 'date-time' } }
    await same((t) => t.createTable(BOT, { name: 'batchTable', schema, keyColumn: 'email' }))
    await same((t) => t.createRows(BOT, 'batchTable', [{ email: 'a', name: 'A', n: 1 }, { email: 'b', name: 'B', n: 2 }, { email: 'c', name: 'C' }]))
    current += 1_000
    const attempts: Array<(t: TablesPort) => Promise<unknown>> = [
      // By key: a key inserted by an earlier row is updated by a later one; dates normalized.
      (t) => t.upsertRows(BOT, 'batchTable', [{ email: 'd', n: 4, when: '2026-01-01' }, { email: 'a', n: 10 }, { email: 'd', name: 'D' }, { email: 'a', n: null }], 'email'),
      // By id: a row inserted earlier in the call can be named by its new id.
      (t) => t.upsertRows(BOT, 'batchTable', [{ email: 'e', name: 'E' }, { id: 5, name: 'E2' }, { id: 2, n: 20 }]),
      // Unknown id after a problem: the unknown id wins, as it is met on the spot.
      (t) => t.upsertRows(BOT, 'batchTable', [{ id: 1, n: 'x' }, { id: 99, n: 1 }]),
      // By a column that is not the key: a new row taking a taken key value is a conflict, named at its row.
      (t) => t.upsertRows(BOT, 'batchTable', [{ name: 'Z', email: 'z' }, { name: 'Y', email: 'b' }], 'name'),
      // A problem before a conflict: the problems are the answer (nothing is written after a problem).
      (t) => t.upsertRows(BOT, 'batchTable', [{ name: 'Q', n: 'bad' }, { name: 'R', email: 'a' }], 'name'),
      (t) => t.upsertRows(BOT, 'batchTable', [{ email: null }, {}, { email: 'f', n: 'no' }], 'email'),
      // Updates: swapping key values fails where row-by-row fails; the same row twice applies in order.
      (t) => t.updateRows(BOT, 'batchTable', [{ id: 1, email: 'b' }, { id: 2, email: 'a' }]),
      (t) => t.updateRows(BOT, 'batchTable', [{ id: 3, email: 'x' }, { id: 2, email: 'c' }, { id: 3, n: 33 }]),
      (t) => t.updateRows(BOT, 'batchTable', [{ id: 1, n: 100, when: '2026-02-02T10:00:00+01:00' }, { id: 4, name: null }, { id: 1, name: 'again' }]),
    ]
    for (const attempt of attempts) {
      current += 100
      await same(attempt).catch((error: Error) => expect(error.message).toMatch(/^both refused/))
    }
    await same((t) => t.findRows(BOT, 'batchTable', { limit: 1000 }))
    await same((t) => t.createRows(BOT, 'batchTable', [{ email: 'after' }]))
  })
})
