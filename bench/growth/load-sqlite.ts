/**
 * Bulk loads of the growth bench into a SQLite data folder, straight into the ports' own tables (the API would take
 * hours at these sizes): files with a tag, rows of a user table, files with passages and vectors. The server is
 * stopped meanwhile; it opens the folder after, as after an upgrade (vector lists train at open).
 */
import { openSqliteBackend } from '../../server/src/store/sqlite/backend.js'
import { BASE_TIME_MS, physicalOf, TABLE_SCHEMA } from '../backends/engine.js'
import { PASSAGES_PER_FILE, type PassageSet } from './passages.js'

const FILE_COLUMNS = `id, bot_id, key, owner_scope, owner_json, content_type, tags_json, metadata_json, access_policies_json,
  policy_public, policy_integrations, index_requested, status, created_at, updated_at, version, declared_size,
  content_version, blob_id, size, sha256, blob_content_type`

// The CTEs start from CAST(? AS INTEGER): a bound JS number arrives as REAL, and 'g' || (i % 7) would then read
// 'g3.0', matching no filter.
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`
const CHUNK = 500_000

/** What a load reports: the table made (tables), and the seconds it took. */
export interface LoadResult {
  seconds: number
}

/**
 * Loads `size` files of `botId` (`growth/<n>`, created `BASE_TIME + n` ms, tagged `group = g<n % 7>`), complete.
 *
 * @example
 * ```ts
 * await loadSqliteFiles(dataDir, botId, 1_000_000)
 * ```
 */
export async function loadSqliteFiles(dataDir: string, botId: string, size: number): Promise<LoadResult> {
  const start = Date.now()
  const backend = await openSqliteBackend({ dataDir })
  try {
    const db = backend.db
    const owner = JSON.stringify({ type: 'bot', id: botId })
    for (let from = 0; from < size; from += CHUNK) {
      const to = Math.min(size, from + CHUNK) - 1
      db.transaction(() => {
        db.prepare(`
          WITH RECURSIVE g(i) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT i + 1 FROM g WHERE i < ?)
          INSERT INTO files (${FILE_COLUMNS})
          SELECT 'file_growth' || printf('%09d', i), ?, 'growth/' || i, '', ?, 'text/plain', '{"group":"g' || (i % 7) || '"}', '{}', '[]', 0, 0, 0,
            'upload_completed', strftime('%Y-%m-%dT%H:%M:%fZ', (? + i) / 1000.0, 'unixepoch'), strftime('%Y-%m-%dT%H:%M:%fZ', (? + i) / 1000.0, 'unixepoch'),
            1, 10, 1, 'blob_growth' || i, 10, 'ffff', 'text/plain'
          FROM g`).run(from, to, botId, owner, BASE_TIME_MS, BASE_TIME_MS)
        db.prepare(`
          WITH RECURSIVE g(i) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT i + 1 FROM g WHERE i < ?)
          INSERT INTO file_tags (file_id, bot_id, tag_key, tag_value) SELECT 'file_growth' || printf('%09d', i), ?, 'group', 'g' || (i % 7) FROM g`).run(from, to, botId)
      })()
    }
    db.exec('ANALYZE')
  } finally {
    await backend.close()
  }
  return { seconds: (Date.now() - start) / 1000 }
}

/**
 * Creates `growthTable` (category, amount, flag, note: every scalar column indexed) and loads `size` rows: `category
 * = cat<n % 20>`, `amount = n × 7919 mod 10000`, `flag = n % 3 = 0`.
 *
 * @example
 * ```ts
 * await loadSqliteRows(dataDir, botId, 10_000_000)
 * ```
 */
export async function loadSqliteRows(dataDir: string, botId: string, size: number): Promise<LoadResult> {
  const start = Date.now()
  const backend = await openSqliteBackend({ dataDir })
  try {
    const record = await backend.tables.createTable(botId, { name: 'growthTable', schema: TABLE_SCHEMA })
    const t = physicalOf(await backend.tables.loadTable(botId, record.id))
    const at = new Date(BASE_TIME_MS).toISOString()
    for (let from = 1; from <= size; from += CHUNK) {
      const to = Math.min(size, from + CHUNK - 1)
      backend.db
        .prepare(`
          WITH RECURSIVE g(i) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT i + 1 FROM g WHERE i < ?)
          INSERT INTO ${quote(t.table)} (id, created_at, updated_at, ${quote(t.category)}, ${quote(t.amount)}, ${quote(t.flag)}, ${quote(t.note)})
          SELECT i, ?, ?, 'cat' || (i % 20), (i * 7919) % 10000, i % 3 = 0, 'note number ' || i FROM g`)
        .run(from, to, at, at)
      process.stderr.write(`  rows ${to.toLocaleString('en')} of ${size.toLocaleString('en')} (${((Date.now() - start) / 1000).toFixed(0)} s)\n`)
    }
    backend.db.exec('ANALYZE')
  } finally {
    await backend.close()
  }
  return { seconds: (Date.now() - start) / 1000 }
}

/**
 * Loads `size` passages of `set` in files of 50 (`file_growth<n>`, tagged `shard = <file number % 7>`, indexed),
 * with their vectors under the set's embedder; the vectors' lists are left to the server, which trains them at open.
 *
 * @example
 * ```ts
 * await loadSqlitePassages(dataDir, botId, 1_000_000, set)
 * ```
 */
export async function loadSqlitePassages(dataDir: string, botId: string, size: number, set: PassageSet): Promise<LoadResult> {
  const start = Date.now()
  const backend = await openSqliteBackend({ dataDir, vectorLists: { minVectors: Number.MAX_SAFE_INTEGER } })
  try {
    const db = backend.db
    const owner = JSON.stringify({ type: 'bot', id: botId })
    const at = new Date(BASE_TIME_MS).toISOString()
    const file = db.prepare(`INSERT INTO files (${FILE_COLUMNS}) VALUES (?, ?, ?, '', ?, 'text/markdown', ?, '{}', '[]', 0, 0, 1, 'indexing_completed', ?, ?,
      1, 10, 1, ?, 10, 'ffff', 'text/markdown')`)
    const tag = db.prepare(`INSERT INTO file_tags (file_id, bot_id, tag_key, tag_value) VALUES (?, ?, 'shard', ?)`)
    const passage = db.prepare(`INSERT INTO search_passages (id, file_id, bot_id, position, content, subtype, page_number, breadcrumb_json, embedder_id, embedding, list_id)
      VALUES (?, ?, ?, ?, ?, 'paragraph', NULL, '[]', ?, ?, NULL)`)
    const vector = new Float32Array(set.dimensions)
    const files = Math.ceil(size / PASSAGES_PER_FILE)
    const FILES_PER_COMMIT = 400
    for (let first = 0; first < files; first += FILES_PER_COMMIT) {
      db.transaction(() => {
        for (let f = first; f < Math.min(files, first + FILES_PER_COMMIT); f++) {
          const id = growthFileId(f)
          const shard = String(f % 7)
          file.run(id, botId, `growth/${f}.md`, owner, JSON.stringify({ shard }), at, at, `blob_growth${f}`)
          tag.run(id, botId, shard)
          for (let p = 0; p < PASSAGES_PER_FILE && f * PASSAGES_PER_FILE + p < size; p++) {
            const n = f * PASSAGES_PER_FILE + p
            set.vector(n, vector)
            passage.run(`passage_growth${n}`, id, botId, p, set.text(n), set.embedder.id, Buffer.from(vector.buffer, 0, vector.byteLength))
          }
        }
      })()
      if ((first / FILES_PER_COMMIT) % 50 === 0) process.stderr.write(`  passages ${(first * PASSAGES_PER_FILE).toLocaleString('en')} of ${size.toLocaleString('en')} (${((Date.now() - start) / 1000).toFixed(0)} s)\n`)
    }
    db.exec('ANALYZE')
  } finally {
    await backend.close()
  }
  return { seconds: (Date.now() - start) / 1000 }
}

/** The id of growth file `f`: zero-padded so that text order is number order. */
export const growthFileId = (f: number): string => `file_growth${String(f).padStart(9, '0')}`
