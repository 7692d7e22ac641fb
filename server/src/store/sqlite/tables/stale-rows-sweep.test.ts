import { describe, expect, it } from 'vitest'
import { openDatabase } from '../connect.js'
import { runMigrations } from '../migrations.js'
import { tablesMigrations } from './migrations.js'
import { SqliteTablesStore } from './tables-port.js'

const EMBEDDER = 'embedder-a'
const schema = { question: { type: 'string', 'x-zui': { searchable: true } }, n: { type: 'number' } }

/** A searchable table of `rows` rows, every one embedded by EMBEDDER, and every statement prepared on its database. */
function embeddedTable(rows: number) {
  const db = openDatabase(':memory:')
  runMigrations(db, tablesMigrations)
  const store = new SqliteTablesStore(db)
  store.createTable('b', { name: 'faqTable', schema } as never)
  store.createRows('b', 'faqTable', Array.from({ length: rows }, (_, i) => ({ question: `question ${i}`, n: i })))
  const claim = store.claimStaleRows('b', 'faqTable', { embedderId: EMBEDDER, limit: rows, leaseMs: 60_000 })
  store.setRowVectors('b', 'faqTable', { token: claim.token, embedderId: EMBEDDER, vectors: claim.rows.map((row) => ({ id: row.id, vector: new Float32Array([1, 0]) })) })
  const physical = store.loadTable('b', 'faqTable').physical
  const prepared: string[] = []
  const prepare = db.prepare.bind(db)
  db.prepare = ((sql: string) => {
    prepared.push(sql)
    return prepare(sql)
  }) as typeof db.prepare
  return { db, store, physical, prepared }
}

describe('the sweep of stale rows (tablesWithStaleRows)', () => {
  it('tells a fully embedded table without reading its rows: counts by the count opcode, seeks on an index, no scan', () => {
    const { db, store, physical, prepared } = embeddedTable(300)
    expect(store.tablesWithStaleRows(EMBEDDER)).toEqual([])
    const onTable = prepared.filter((sql) => sql.includes(physical) && !sql.includes('sqlite_master'))
    expect(onTable.length).toBeGreaterThan(0)
    for (const sql of onTable) {
      const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => EMBEDDER)
      const opcodes = (db.prepare(`EXPLAIN ${sql}`).all(...params) as Array<{ opcode: string }>).map((r) => r.opcode)
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail).join(' | ')
      // Either SQLite's count opcode (b-tree cells counted, no row decoded), or index seeks only.
      if (!opcodes.includes('Count')) expect(plan, sql).not.toMatch(/\bSCAN\b/)
    }
  })

  it('still finds every kind of stale row: one without a vector, one of another embedder, one whose claim ran out', () => {
    const { db, store, physical } = embeddedTable(50)
    const vec = `"${physical}_vec"`
    const { id } = store.loadTable('b', 'faqTable')
    store.createRows('b', 'faqTable', [{ question: 'a new one', n: 0 }])
    expect(store.tablesWithStaleRows(EMBEDDER)).toEqual([{ botId: 'b', tableId: id }])
    store.deleteRows('b', 'faqTable', { ids: [51] } as never)
    expect(store.tablesWithStaleRows(EMBEDDER)).toEqual([])
    db.prepare(`UPDATE ${vec} SET embedder_id = 'embedder-0' WHERE row_id = 7`).run()
    expect(store.tablesWithStaleRows(EMBEDDER)).toEqual([{ botId: 'b', tableId: id }])
    db.prepare(`UPDATE ${vec} SET embedder_id = 'embedder-z', claim_token = 't', claimed_until = '2999-01-01T00:00:00.000Z' WHERE row_id = 7`).run()
    expect(store.tablesWithStaleRows(EMBEDDER)).toEqual([])
    db.prepare(`UPDATE ${vec} SET embedder_id = NULL, claimed_until = '2000-01-01T00:00:00.000Z' WHERE row_id = 7`).run()
    expect(store.tablesWithStaleRows(EMBEDDER)).toEqual([{ botId: 'b', tableId: id }])
  })

  it('gives the side tables made before it the index (migration tables-0004)', () => {
    const { db, physical } = embeddedTable(3)
    const index = `${physical}_vec_stale_idx`
    const has = () => db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?`).get(index) !== undefined
    expect(has()).toBe(true)
    db.exec(`DROP INDEX "${index}"`)
    tablesMigrations.find((migration) => migration.id === 'tables-0004-row-vector-stale-index')!.up(db)
    expect(has()).toBe(true)
  })
})
