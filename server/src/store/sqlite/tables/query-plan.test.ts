import { describe, expect, it } from 'vitest'
import { openDatabase } from '../connect.js'
import { runMigrations } from '../migrations.js'
import { tablesMigrations } from './migrations.js'
import { SqliteTablesStore } from './tables-port.js'
import { buildTableRuntime } from './runtime.js'
import { compileFind } from './find.js'
import { planFind } from '../../tables/find/index.js'
import type { FindQuery } from '../../tables/types.js'

/** A 500-row table and the SQL a query compiles to over it, ready to run or explain. */
function compiled(query: FindQuery) {
  const db = openDatabase(':memory:')
  runMigrations(db, tablesMigrations)
  const store = new SqliteTablesStore(db)
  store.createTable('b', { name: 'planTable', schema: { category: 'x', amount: 1, tags: ['x'] } })
  store.createRows('b', 'planTable', Array.from({ length: 500 }, (_, i) => ({ category: `c${i % 20}`, amount: i, tags: ['a'] })))
  const record = store.loadTable('b', 'planTable')
  const rt = buildTableRuntime(record.physical, record.schema, record.physicalMap)
  return { db, find: compileFind(rt, planFind(rt, query)) }
}

/** SQLite's plan for the SQL a query compiles to: proof that filters and groups run on indexes, not scans. */
function plan(query: FindQuery): string {
  const { db, find } = compiled(query)
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${find.sql}`).all(...find.params) as Array<{ detail: string }>
  return rows.map((r) => r.detail).join(' | ')
}

/** The opcodes of the program SQLite runs for a query: `Count` is its count opcode, which decodes no row. */
function opcodes(query: FindQuery): string[] {
  const { db, find } = compiled(query)
  return (db.prepare(`EXPLAIN ${find.sql}`).all(...find.params) as Array<{ opcode: string }>).map((r) => r.opcode)
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

  it('counts a whole table with the count opcode: COUNT(*) and no WHERE, as the raw count (decision 1479)', () => {
    const { db, find } = compiled({ group: { id: 'count' } })
    expect(find.sql).toMatch(/^SELECT COUNT\(\*\) AS g0 FROM "[^"]+" t LIMIT \? OFFSET \?$/)
    expect(opcodes({ group: { id: 'count' } })).toContain('Count')
    expect((db.prepare(find.sql).all(...find.params) as Array<Record<string, unknown>>).map(find.decode)).toEqual([{ idCount: 500 }])
    // An empty filter is no filter; a count past the only group answers no group.
    expect(opcodes({ filter: {}, group: { createdAt: 'count' } })).toContain('Count')
    const { db: db2, find: past } = compiled({ group: { id: 'count' }, offset: 1 })
    expect(db2.prepare(past.sql).all(...past.params)).toEqual([])
  })

  it('keeps counting values, not rows, where the count could differ or the opcode does not apply', () => {
    // A user column may hold no value: its count is of the values, with the column named.
    expect(compiled({ group: { amount: 'count' } }).find.sql).toMatch(/^SELECT COUNT\(t\."c2"\) AS g0 /)
    // A filter or a second output: not the count opcode's shape (the filtered count is on the index, above).
    expect(opcodes({ filter: { category: 'c7' }, group: { id: 'count' } })).not.toContain('Count')
    expect(opcodes({ group: { id: 'count', amount: 'sum' } })).not.toContain('Count')
  })

  it('groups along the key column index', () => {
    expect(plan({ group: { category: 'key', amount: 'count' } })).toMatch(/USING INDEX \S+_c1_idx/)
  })
})
