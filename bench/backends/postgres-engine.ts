import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connectPostgres } from '../../server/src/store/postgres/connect.js'
import { openPostgresBackend } from '../../server/src/store/postgres/backend.js'
import { createTestDatabase } from '../../server/src/store/postgres/test-database.test-support.js'
import type { TableRecord } from '../../server/src/store/tables/types.js'
import { BASE_TIME_MS, physicalOf, type Engine, type PhysicalTable } from './engine.js'

const FILE_COLUMNS = `id, bot_id, key, owner_scope, owner_json, content_type, tags_json, metadata_json, access_policies_json,
  policy_public, policy_integrations, index_requested, status, created_at, updated_at, version, declared_size,
  content_version, blob_id, size, sha256, blob_content_type`

/**
 * The PostgreSQL engine: a fresh database `botshelf_t_<random>` on the test server (`BOTSHELF_TEST_POSTGRES_URL`,
 * default 127.0.0.1:5432), `openPostgresBackend` on it with its defaults (pool of 10 unless `poolSize` says, 30 s statement timeout),
 * and bare SQL through a second pool made by the same `connectPostgres` (same driver, same settings but no
 * statement timeout, statements prepared by the driver alike). Bulk loads are one `INSERT ... SELECT FROM generate_series` per call. The
 * database is dropped on close.
 *
 * @example
 * ```ts
 * const engine = await openPostgresEngine()
 * await engine.bulkRows(record, 1, 10_000)
 * const wide = await openPostgresEngine({ poolSize: 40 })
 * ```
 */
export async function openPostgresEngine(options: { poolSize?: number } = {}): Promise<Engine> {
  const database = await createTestDatabase()
  const dir = mkdtempSync(join(tmpdir(), 'botshelf-bench-backends-'))
  const backend = await openPostgresBackend({ url: database.url, dataDir: dir, ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }) })
  // No statement timeout: a bulk load of 1M rows on a loaded machine can take longer than the default 30 s.
  const sql = connectPostgres({ url: database.url, statementTimeoutMs: 0 })
  const id = (name: string) => sql(name)
  const ownerOf = (botId: string) => JSON.stringify({ type: 'bot', id: botId })

  return {
    name: 'postgres',
    backend,
    async rawUpsertAndComplete(botId, key, n) {
      const now = new Date().toISOString()
      const [row] = await sql<Array<{ id: string }>>`
        INSERT INTO files (${sql.unsafe(FILE_COLUMNS)})
        VALUES (${`file_raw${String(n).padStart(9, '0')}`}, ${botId}, ${key}, '', ${ownerOf(botId)}, 'text/plain', '{}', '{}', '[]', false, false, false,
          'upload_pending', ${now}, ${now}, 1, 10, NULL, NULL, NULL, NULL, NULL)
        ON CONFLICT (bot_id, owner_scope, key) DO UPDATE SET status = 'upload_pending', updated_at = excluded.updated_at,
          version = files.version + 1, declared_size = excluded.declared_size
        RETURNING *`
      return sql`
        UPDATE files SET status = 'upload_completed', updated_at = ${now}, content_version = version, blob_id = ${`blob_raw${n}`}, size = 10,
          sha256 = ${'f'.repeat(64)}, blob_content_type = content_type WHERE id = ${row!.id} RETURNING *`
    },
    async rawGetFile(botId, fileId) {
      return sql`SELECT * FROM files WHERE bot_id = ${botId} AND id = ${fileId} AND (expires_at IS NULL OR expires_at > ${new Date().toISOString()})`
    },
    async rawListFiles(botId, pageSize, after) {
      const now = new Date().toISOString()
      return after
        ? sql`SELECT * FROM files WHERE bot_id = ${botId} AND (expires_at IS NULL OR expires_at > ${now})
            AND (created_at, id) < (${after.value}, ${after.id}) ORDER BY created_at DESC, id DESC LIMIT ${pageSize + 1}`
        : sql`SELECT * FROM files WHERE bot_id = ${botId} AND (expires_at IS NULL OR expires_at > ${now})
            ORDER BY created_at DESC, id DESC LIMIT ${pageSize + 1}`
    },
    async rawInsertRows(t: PhysicalTable, rows) {
      // The ids come from the catalog's counter, as the port's do: one statement takes them and inserts.
      const now = new Date().toISOString()
      return sql`
        WITH ids AS (UPDATE tables_catalog SET last_row_id = last_row_id + ${rows.length} WHERE physical = ${t.table} RETURNING last_row_id)
        INSERT INTO ${id(t.table)} (id, created_at, updated_at, ${id(t.category)}, ${id(t.amount)}, ${id(t.flag)}, ${id(t.note)})
        SELECT (SELECT last_row_id FROM ids) - ${rows.length} + r.n, ${now}, ${now}, r.category, r.amount, r.flag::boolean, r.note
        FROM unnest(${rows.map((row) => row.category)}::text[], ${rows.map((row) => row.amount)}::float8[], ${rows.map((row) => (row.flag ? 'true' : 'false'))}::text[],
          ${rows.map((row) => row.note)}::text[]) WITH ORDINALITY AS r (category, amount, flag, note, n)
        RETURNING *`
    },
    async rawFindRows(t, min, limit) {
      return sql`SELECT * FROM ${id(t.table)} WHERE ${id(t.amount)} >= ${min} ORDER BY id LIMIT ${limit + 1}`
    },
    async rawGroupRows(t) {
      return sql`SELECT ${id(t.category)} AS k, count(${id(t.amount)}) AS c, sum(${id(t.amount)}) AS s FROM ${id(t.table)}
        GROUP BY ${id(t.category)} ORDER BY ${id(t.category)}`
    },
    async rawSearch(botId, words) {
      const query = words.join(' | ')
      return sql`SELECT p.seq, p.id, p.file_id, p.position, p.content, p.subtype, p.page_number, p.breadcrumb_json FROM search_passages p
        WHERE p.bot_id = ${botId} AND p.content_tsv @@ to_tsquery('english', ${query})
        ORDER BY ts_rank_cd(p.content_tsv, to_tsquery('english', ${query})) DESC, p.seq LIMIT 20`
    },
    async bulkFiles(botId, from, to) {
      // The same text as benchCreatedAt(g): BASE_TIME_MS + g milliseconds, ISO.
      const created = sql`to_char(to_timestamp((${BASE_TIME_MS}::float8 + g) / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      await sql`
        INSERT INTO files (${sql.unsafe(FILE_COLUMNS)})
        SELECT 'file_bench' || lpad(g::text, 9, '0'), ${botId}, 'bench/' || g, '', ${ownerOf(botId)}, 'text/plain', '{}', '{}', '[]', false, false, false,
          'upload_completed', ${created}, ${created}, 1, 10, 1, 'blob_bench' || g, 10, 'ffff', 'text/plain'
        FROM generate_series(${from}::int, ${to}::int) g`
    },
    async bulkRows(record: TableRecord, from, to) {
      const t = physicalOf(record)
      const at = new Date(BASE_TIME_MS).toISOString()
      await sql`
        INSERT INTO ${id(t.table)} (id, created_at, updated_at, ${id(t.category)}, ${id(t.amount)}, ${id(t.flag)}, ${id(t.note)})
        SELECT g, ${at}, ${at}, 'cat' || (g % 20), (g::bigint * 7919) % 10000, g % 3 = 0, 'note number ' || g FROM generate_series(${from}::int, ${to}::int) g`
      await sql`UPDATE tables_catalog SET last_row_id = greatest(last_row_id, ${to}) WHERE id = ${record.id}`
    },
    async analyze() {
      await sql`ANALYZE`
    },
    async close() {
      await sql.end({ timeout: 5 })
      await backend.close()
      await database.drop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
