import { describe, expect, it } from 'vitest'
import { runMigrations } from './migrations.js'
import { openDatabase } from './connect.js'
import { sqliteMigrations } from './backend.js'
import { SqliteTablesStore } from './tables/tables-port.js'
import { KnowledgeBasesRepository } from './files/knowledge-bases-port.js'
import { tagTables } from './tag-sql.js'

const BOT = 'bot_1'

describe('one tag model', () => {
  it('every tag side table has the same shape, with the owner column the model names', () => {
    const db = openDatabase(':memory:')
    runMigrations(db, sqliteMigrations)
    for (const [table, owner] of Object.entries(tagTables)) {
      const columns = (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name)
      expect(columns, table).toEqual([owner, 'bot_id', 'tag_key', 'tag_value'])
      const lookup = db.prepare(`PRAGMA index_list(${table})`).all() as Array<{ name: string }>
      expect(lookup.map((i) => i.name), table).toContain(`${table}_lookup`)
    }
  })

  it('upgrades an older database: table tags move into table_tags, knowledge-base tags keep their owner', () => {
    const db = openDatabase(':memory:')
    const before = sqliteMigrations.filter((m) => m.id !== 'tables-0003-table-tags' && m.id !== 'files-0002-knowledge-base-tags-owner-column')
    runMigrations(db, before)
    const at = '2026-11-01T00:00:00.000Z'
    db.prepare(
      `INSERT INTO tables_catalog (id, bot_id, name, physical, schema_json, physical_json, next_column, factor, frozen, key_column, tags_json,
       is_compute_enabled, created_at, updated_at) VALUES ('table_01', ?, 'oldTable', 'ut_01', '{"type":"object","properties":{}}', '{}', 1, 1, 0, NULL, ?, 0, ?, ?)`,
    ).run(BOT, JSON.stringify({ team: 'sales', tier: 'gold' }), at, at)
    db.exec('CREATE TABLE ut_01 (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)')
    db.prepare("INSERT INTO knowledge_bases (id, bot_id, name, tags_json, created_at, updated_at) VALUES ('kb_01', ?, 'Docs', ?, ?, ?)").run(
      BOT,
      JSON.stringify({ lang: 'en' }),
      at,
      at,
    )
    db.prepare("INSERT INTO knowledge_base_tags (file_id, bot_id, tag_key, tag_value) VALUES ('kb_01', ?, 'lang', 'en')").run(BOT)

    runMigrations(db, sqliteMigrations)
    const tables = new SqliteTablesStore(db)
    expect(tables.listTables(BOT, { tags: { team: 'sales' }, pageSize: 10 }).tables.map((t) => t.name)).toEqual(['oldTable'])
    expect(tables.listTables(BOT, { tags: { team: 'sales', tier: 'silver' }, pageSize: 10 }).tables).toEqual([])
    const kbs = new KnowledgeBasesRepository(db)
    expect(kbs.list({ botId: BOT, tags: [{ key: 'lang', anyOf: ['en'] }], pageSize: 10 }).items.map((k) => k.id)).toEqual(['kb_01'])
  })

  it('keeps table tags in step with the catalog on create, update and delete, and filters through the index', () => {
    const db = openDatabase(':memory:')
    runMigrations(db, sqliteMigrations)
    const tables = new SqliteTablesStore(db)
    const table = tables.createTable(BOT, { name: 'ordersTable', schema: { total: 0 }, tags: { team: 'sales' } })
    tables.createTable(BOT, { name: 'usersTable', schema: { email: '' }, tags: { team: 'support' } })
    expect(tables.listTables(BOT, { tags: { team: 'sales' }, pageSize: 10 }).tables.map((t) => t.name)).toEqual(['ordersTable'])
    tables.updateTable(BOT, table.id, { tags: { team: 'ops' } })
    expect(tables.listTables(BOT, { tags: { team: 'sales' }, pageSize: 10 }).tables).toEqual([])
    expect(tables.listTables(BOT, { tags: { team: 'ops' }, pageSize: 10 }).tables.map((t) => t.name)).toEqual(['ordersTable'])
    tables.deleteTable(BOT, table.id)
    expect(db.prepare('SELECT count(*) FROM table_tags WHERE table_id = ?').pluck().get(table.id)).toBe(0)
    const plan = db
      .prepare('EXPLAIN QUERY PLAN SELECT 1 FROM table_tags t WHERE t.bot_id = ? AND t.tag_key = ? AND t.tag_value IN (?)')
      .all(BOT, 'team', 'ops') as Array<{ detail: string }>
    expect(plan.map((p) => p.detail).join(' ')).toContain('table_tags_lookup')
  })
})
