import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { benchFileId, benchRow, TABLE_SCHEMA, type Engine } from '../../bench/backends/engine.js'
import { openSqliteEngine } from '../../bench/backends/sqlite-engine.js'

// The bulk loads of the bench's SQLite engine write what the bench claims: the rows `benchRow(n)` describes and the
// files `bench/<n>`. A bound number is a REAL in SQLite, so a series seeded with one built `cat7.0` and `bench/7.0`.
let engine: Engine
beforeAll(async () => {
  engine = await openSqliteEngine()
})
afterAll(async () => {
  await engine?.close()
})

describe('the SQLite bench engine', () => {
  it('bulk-loads rows equal to benchRow, integers as integers', async () => {
    const { backend } = engine
    await backend.tables.createTable('bot_bench', { name: 'benchTable', schema: TABLE_SCHEMA })
    const record = await backend.tables.loadTable('bot_bench', 'benchTable')
    await engine.bulkRows(record, 1, 45)
    const { rows } = await backend.tables.findRows('bot_bench', 'benchTable', { limit: 100 })
    expect(rows.map(({ id, category, amount, flag, note }) => ({ id, category, amount, flag, note }))).toEqual(
      Array.from({ length: 45 }, (_, k) => ({ id: k + 1, ...benchRow(k + 1) })),
    )
    const { rows: groups } = await backend.tables.findRows('bot_bench', 'benchTable', { filter: { category: 'cat7' }, group: { id: 'count' } })
    expect(groups).toEqual([{ idCount: 2 }])
  })

  it('bulk-loads files under the keys and ids the bench reads back', async () => {
    await engine.bulkFiles('bot_bench', 0, 3)
    const db = (engine.backend as unknown as { db: { prepare(sql: string): { all(...args: unknown[]): unknown[] } } }).db
    expect(db.prepare("SELECT id, key, blob_id FROM files WHERE bot_id = ? ORDER BY id").all('bot_bench')).toEqual(
      [0, 1, 2, 3].map((n) => ({ id: benchFileId(n), key: `bench/${n}`, blob_id: `blob_bench${n}` })),
    )
  })
})
