import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Statement } from 'better-sqlite3'
import { openSqliteBackend } from '../../server/src/store/sqlite/backend.js'
import type { TableRecord } from '../../server/src/store/tables/types.js'
import { BASE_TIME_MS, physicalOf, type Engine, type PhysicalTable } from './engine.js'

const FILE_COLUMNS = `id, bot_id, key, owner_scope, owner_json, content_type, tags_json, metadata_json, access_policies_json,
  policy_public, policy_integrations, index_requested, status, created_at, updated_at, version, declared_size,
  content_version, blob_id, size, sha256, blob_content_type`

/**
 * The embedded engine: `openSqliteBackend` in a fresh data folder (WAL, synchronous = FULL), and bare SQL as
 * prepared better-sqlite3 statements on the backend's own connection (same file, same cache, same durability).
 * Bulk loads are one `INSERT ... SELECT` over a recursive CTE per call.
 *
 * @example
 * ```ts
 * const engine = await openSqliteEngine()
 * await engine.bulkFiles('bot_growth', 0, 9_999)
 * ```
 */
export async function openSqliteEngine(): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'botshelf-bench-backends-'))
  const backend = await openSqliteBackend({ dataDir: dir })
  const db = backend.db
  const upsertRow = db.prepare(`
    INSERT INTO files (${FILE_COLUMNS}) VALUES (?, ?, ?, '', ?, 'text/plain', '{}', '{}', '[]', 0, 0, 0, 'upload_pending', ?, ?, 1, 10,
      NULL, NULL, NULL, NULL, NULL)
    ON CONFLICT (bot_id, owner_scope, key) DO UPDATE SET status = 'upload_pending', updated_at = excluded.updated_at,
      version = version + 1, declared_size = excluded.declared_size
    RETURNING *`)
  const completeRow = db.prepare(`
    UPDATE files SET status = 'upload_completed', updated_at = ?, content_version = version, blob_id = ?, size = 10,
      sha256 = ?, blob_content_type = content_type WHERE id = ? RETURNING *`)
  const getFile = db.prepare('SELECT * FROM files WHERE bot_id = ? AND id = ? AND (expires_at IS NULL OR expires_at > ?)')
  const listFirst = db.prepare(`SELECT * FROM files WHERE bot_id = ? AND (expires_at IS NULL OR expires_at > ?)
    ORDER BY created_at DESC, id DESC LIMIT ?`)
  const listAfter = db.prepare(`SELECT * FROM files WHERE bot_id = ? AND (expires_at IS NULL OR expires_at > ?)
    AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?`)
  const search = db.prepare(`SELECT p.* FROM search_passages_fts JOIN search_passages p ON p.rowid = search_passages_fts.rowid
    WHERE search_passages_fts MATCH ? AND p.bot_id = ? ORDER BY bm25(search_passages_fts) LIMIT 20`)
  const statements = new Map<string, Statement<unknown[]>>()
  const prepared = (text: string) => {
    let statement = statements.get(text)
    if (!statement) statements.set(text, (statement = db.prepare(text)))
    return statement
  }
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

  return {
    name: 'sqlite',
    backend,
    async rawUpsertAndComplete(botId, key, n) {
      const now = new Date().toISOString()
      const row = upsertRow.get(`file_raw${String(n).padStart(9, '0')}`, botId, key, JSON.stringify({ type: 'bot', id: botId }), now, now) as { id: string }
      return completeRow.get(now, `blob_raw${n}`, 'f'.repeat(64), row.id)
    },
    async rawGetFile(botId, id) {
      return getFile.get(botId, id, new Date().toISOString())
    },
    async rawListFiles(botId, pageSize, after) {
      const now = new Date().toISOString()
      return after ? listAfter.all(botId, now, after.value, after.id, pageSize + 1) : listFirst.all(botId, now, pageSize + 1)
    },
    async rawInsertRows(t: PhysicalTable, rows) {
      const insert = prepared(`INSERT INTO ${quote(t.table)} (created_at, updated_at, ${quote(t.category)}, ${quote(t.amount)}, ${quote(t.flag)}, ${quote(t.note)})
        VALUES (?, ?, ?, ?, ?, ?)`)
      const now = new Date().toISOString()
      db.transaction(() => {
        for (const row of rows) insert.run(now, now, row.category, row.amount, row.flag ? 1 : 0, row.note)
      })()
    },
    async rawFindRows(t, min, limit) {
      return prepared(`SELECT * FROM ${quote(t.table)} WHERE ${quote(t.amount)} >= ? ORDER BY id LIMIT ?`).all(min, limit + 1)
    },
    async rawGroupRows(t) {
      return prepared(`SELECT ${quote(t.category)} AS k, count(${quote(t.amount)}) AS c, sum(${quote(t.amount)}) AS s FROM ${quote(t.table)}
        GROUP BY ${quote(t.category)} ORDER BY ${quote(t.category)}`).all()
    },
    async rawSearch(botId, words) {
      return search.all(words.map((word) => `"${word}"`).join(' OR '), botId)
    },
    async bulkFiles(botId, from, to) {
      db.prepare(`
        WITH RECURSIVE g(i) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT i + 1 FROM g WHERE i < ?)
        INSERT INTO files (${FILE_COLUMNS})
        SELECT 'file_bench' || printf('%09d', i), ?, 'bench/' || i, '', ?, 'text/plain', '{}', '{}', '[]', 0, 0, 0, 'upload_completed',
          strftime('%Y-%m-%dT%H:%M:%fZ', (? + i) / 1000.0, 'unixepoch'), strftime('%Y-%m-%dT%H:%M:%fZ', (? + i) / 1000.0, 'unixepoch'),
          1, 10, 1, 'blob_bench' || i, 10, 'ffff', 'text/plain'
        FROM g`).run(from, to, botId, JSON.stringify({ type: 'bot', id: botId }), BASE_TIME_MS, BASE_TIME_MS)
    },
    async bulkRows(record: TableRecord, from, to) {
      const t = physicalOf(record)
      db.prepare(`
        WITH RECURSIVE g(i) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT i + 1 FROM g WHERE i < ?)
        INSERT INTO ${quote(t.table)} (id, created_at, updated_at, ${quote(t.category)}, ${quote(t.amount)}, ${quote(t.flag)}, ${quote(t.note)})
        SELECT i, ?, ?, 'cat' || (i % 20), (i * 7919) % 10000, i % 3 = 0, 'note number ' || i FROM g`).run(from, to, new Date(BASE_TIME_MS).toISOString(), new Date(BASE_TIME_MS).toISOString())
    },
    async analyze() {
      db.exec('ANALYZE')
    },
    async close() {
      await backend.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
