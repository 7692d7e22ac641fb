import { describe, expect, it } from 'vitest'
import { openDatabase } from '../connect.js'
import { runMigrations } from '../migrations.js'
import { tablesMigrations } from './migrations.js'
import { SqliteTablesStore } from './tables-port.js'
import { buildTableRuntime } from './runtime.js'
import { compileFind } from './find.js'
import { planFind } from '../../tables/find/index.js'
import type { FindQuery } from '../../tables/types.js'

/** SQLite's plan for the SQL a query compiles to: proof that filters and groups run on indexes, not scans. */
function plan(query: FindQuery): string {
  const db = openDatabase(':memory:')
  runMigrations(db, tablesMigrations)
  const store = new SqliteTablesStore(db)
  store.createTable('b', { name: 'planTable', schema: { category: 'x', amount: 1, tags: ['x'] } })
  store.createRows('b', 'planTable', Array.from({ length: 500 }, (_, i) => ({ category: `c${i % 20}`, amount: i, tags: ['a'] })))
  const record = store.loadTable('b', 'planTable')
  const rt = buildTableRuntime(record.physical, record.schema, record.physicalMap)
  const compiled = compileFind(rt, planFind(rt, query))
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${compiled.sql}`).all(...compiled.params) as Array<{ detail: string }>
  return rows.map((r) => r.detail).join(' | ')
}

describe('query plans', () => {
  it('searches the column index for an equality filter', () => {
    expect(plan({ filter: { category: 'c7' } })).toMatch(/SEARCH t USING INDEX \S+_c1_idx \(c1=\?\)/)
  })

  it('searches the column index for a range filter', () => {
    expect(plan({ filter: { amount: { $gte: 10, $lt: 20 } } })).toMatch(/SEARCH t USING INDEX \S+_c2_idx \(c2>\? AND c2<\?\)/)
  })

  it('searches the timestamp index for a createdAt range', () => {
    expect(plan({ filter: { createdAt: { $gte: '2999-01-01', $lt: '2999-02-01' } } })).toMatch(/USING INDEX \S+_created_idx/)
  })

  it('walks the column index to order by a column', () => {
    expect(plan({ orderBy: 'amount' })).toMatch(/SCAN t USING INDEX \S+_c2_idx/)
  })

  it('counts a filtered range or value on the covering column index, without reading rows (decision 1474)', () => {
    expect(plan({ filter: { category: 'c7' }, group: { id: 'count' } })).toMatch(/SEARCH t USING COVERING INDEX \S+_c1_idx \(c1=\?\)/)
    expect(plan({ filter: { amount: { $gte: 10 } }, group: { id: 'count' } })).toMatch(/SEARCH t USING COVERING INDEX \S+_c2_idx \(c2>\?\)/)
  })

  it('groups along the key column index', () => {
    expect(plan({ group: { category: 'key', amount: 'count' } })).toMatch(/USING INDEX \S+_c1_idx/)
  })
})
