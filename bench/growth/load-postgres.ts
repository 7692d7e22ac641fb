/**
 * Bulk loads of the growth bench into a PostgreSQL database, straight into the ports' own tables with
 * `INSERT ... SELECT FROM generate_series` (the API would take hours at these sizes); passages go through the search
 * port (its vector encoding is the adapter's own), files of 50 at a time. The server is stopped meanwhile.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connectPostgres } from '../../server/src/store/postgres/connect.js'
import { openPostgresBackend } from '../../server/src/store/postgres/backend.js'
import { BASE_TIME_MS, physicalOf, TABLE_SCHEMA } from '../backends/engine.js'
import type { LoadResult } from './load-sqlite.js'
import { PASSAGES_PER_FILE, type PassageSet } from './passages.js'

const FILE_COLUMNS = `id, bot_id, key, owner_scope, owner_json, content_type, tags_json, metadata_json, access_policies_json,
  policy_public, policy_integrations, index_requested, status, created_at, updated_at, version, declared_size,
  content_version, blob_id, size, sha256, blob_content_type`
const CHUNK = 1_000_000

async function withBackend<T>(url: string, work: (backend: Awaited<ReturnType<typeof openPostgresBackend>>, sql: ReturnType<typeof connectPostgres>) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'botshelf-growth-pg-'))
  const backend = await openPostgresBackend({ url, dataDir: dir })
  // No statement timeout: a bulk load of millions of rows takes longer than the default 30 s.
  const sql = connectPostgres({ url, statementTimeoutMs: 0 })
  try {
    return await work(backend, sql)
  } finally {
    await sql.end({ timeout: 5 })
    await backend.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

const created = (sql: ReturnType<typeof connectPostgres>) =>
  sql`to_char(to_timestamp((${BASE_TIME_MS}::float8 + g) / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/**
 * Loads `size` files of `botId` (`growth/<n>`, created `BASE_TIME + n` ms, tagged `group = g<n % 7>`), complete.
 *
 * @example
 * ```ts
 * await loadPostgresFiles(url, botId, 1_000_000)
 * ```
 */
export async function loadPostgresFiles(url: string, botId: string, size: number): Promise<LoadResult> {
  const start = Date.now()
  await withBackend(url, async (_backend, sql) => {
    const owner = JSON.stringify({ type: 'bot', id: botId })
    for (let from = 0; from < size; from += CHUNK) {
      const to = Math.min(size, from + CHUNK) - 1
      await sql`
        INSERT INTO files (${sql.unsafe(FILE_COLUMNS)})
        SELECT 'file_growth' || lpad(g::text, 9, '0'), ${botId}, 'growth/' || g, '', ${owner}, 'text/plain', '{"group":"g' || (g % 7) || '"}', '{}', '[]',
          false, false, false, 'upload_completed', ${created(sql)}, ${created(sql)}, 1, 10, 1, 'blob_growth' || g, 10, 'ffff', 'text/plain'
        FROM generate_series(${from}::int, ${to}::int) g`
      await sql`
        INSERT INTO file_tags (file_id, bot_id, tag_key, tag_value)
        SELECT 'file_growth' || lpad(g::text, 9, '0'), ${botId}, 'group', 'g' || (g % 7) FROM generate_series(${from}::int, ${to}::int) g`
    }
    await sql`VACUUM ANALYZE files`
    await sql`VACUUM ANALYZE file_tags`
  })
  return { seconds: (Date.now() - start) / 1000 }
}

/**
 * Creates `growthTable` and loads `size` rows (as `loadSqliteRows`).
 *
 * @example
 * ```ts
 * await loadPostgresRows(url, botId, 10_000_000)
 * ```
 */
export async function loadPostgresRows(url: string, botId: string, size: number): Promise<LoadResult> {
  const start = Date.now()
  await withBackend(url, async (backend, sql) => {
    const table = await backend.tables.createTable(botId, { name: 'growthTable', schema: TABLE_SCHEMA })
    const record = await backend.tables.loadTable(botId, table.id)
    const t = physicalOf(record)
    const at = new Date(BASE_TIME_MS).toISOString()
    for (let from = 1; from <= size; from += CHUNK) {
      const to = Math.min(size, from + CHUNK - 1)
      await sql`
        INSERT INTO ${sql(t.table)} (id, created_at, updated_at, ${sql(t.category)}, ${sql(t.amount)}, ${sql(t.flag)}, ${sql(t.note)})
        SELECT g, ${at}, ${at}, 'cat' || (g % 20), (g::bigint * 7919) % 10000, g % 3 = 0, 'note number ' || g FROM generate_series(${from}::int, ${to}::int) g`
      process.stderr.write(`  rows ${to.toLocaleString('en')} of ${size.toLocaleString('en')} (${((Date.now() - start) / 1000).toFixed(0)} s)\n`)
    }
    await sql`UPDATE tables_catalog SET last_row_id = greatest(last_row_id, ${size}) WHERE id = ${record.id}`
    await sql`VACUUM ANALYZE ${sql(t.table)}`
  })
  return { seconds: (Date.now() - start) / 1000 }
}

/**
 * Loads `size` passages of `set` in files of 50 (tagged `shard = <file number % 7>`, indexed) through the search
 * port, file by file.
 *
 * @example
 * ```ts
 * await loadPostgresPassages(url, botId, 100_000, set)
 * ```
 */
export async function loadPostgresPassages(url: string, botId: string, size: number, set: PassageSet): Promise<LoadResult> {
  const start = Date.now()
  await withBackend(url, async (backend, sql) => {
    const owner = JSON.stringify({ type: 'bot', id: botId })
    const files = Math.ceil(size / PASSAGES_PER_FILE)
    await sql`
      INSERT INTO files (${sql.unsafe(FILE_COLUMNS)})
      SELECT 'file_growth' || lpad(g::text, 9, '0'), ${botId}, 'growth/' || g || '.md', '', ${owner}, 'text/markdown', '{"shard":"' || (g % 7) || '"}', '{}', '[]',
        false, false, true, 'indexing_completed', ${created(sql)}, ${created(sql)}, 1, 10, 1, 'blob_growth' || g, 10, 'ffff', 'text/markdown'
      FROM generate_series(0, ${files - 1}::int) g`
    await sql`
      INSERT INTO file_tags (file_id, bot_id, tag_key, tag_value)
      SELECT 'file_growth' || lpad(g::text, 9, '0'), ${botId}, 'shard', (g % 7)::text FROM generate_series(0, ${files - 1}::int) g`
    for (let f = 0; f < files; f++) {
      const passages = []
      for (let p = 0; p < PASSAGES_PER_FILE && f * PASSAGES_PER_FILE + p < size; p++) {
        const n = f * PASSAGES_PER_FILE + p
        passages.push({ content: set.text(n), subtype: 'paragraph' as const, breadcrumb: [], vector: set.vector(n, new Float32Array(set.dimensions)) })
      }
      await backend.search.replacePassages({ fileId: `file_growth${String(f).padStart(9, '0')}`, botId, embedderId: set.embedder.id, passages })
      if (f % 200 === 0) process.stderr.write(`  passages ${(f * PASSAGES_PER_FILE).toLocaleString('en')} of ${size.toLocaleString('en')} (${((Date.now() - start) / 1000).toFixed(0)} s)\n`)
    }
    await sql`VACUUM ANALYZE`
  })
  return { seconds: (Date.now() - start) / 1000 }
}
