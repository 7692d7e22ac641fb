import { randomUUID } from 'node:crypto'
import type { Backend, BackendPorts } from '../../backend.js'
import type { Clock } from '../../clock.js'
import type { FilesPort } from '../../files/files-port.js'
import type { FileRecord, UpsertFileInput } from '../../files/types.js'
import type { PgSql } from '../pg-types.js'
import { replaceTags } from '../tag-sql.js'
import { postgresSearchMigrations } from './migrations.js'
import { createPostgresSearchPort } from './search-port.js'
import type { VectorMode } from './vector-mode.js'

/**
 * The columns of the files table the search index reads (named and typed as the PostgreSQL files port creates
 * them), plus the record as JSON for the minimal files port below. Test setup only: the real table is the files
 * port's, migrated before the search migrations.
 */
async function createMinimalFilesTables(sql: PgSql): Promise<void> {
  await sql`
    CREATE TABLE files (
      id text COLLATE "C" PRIMARY KEY,
      bot_id text COLLATE "C" NOT NULL,
      key text COLLATE "C" NOT NULL,
      owner_scope text COLLATE "C" NOT NULL,
      policy_integrations boolean NOT NULL,
      expires_at text COLLATE "C",
      record_json text NOT NULL,
      UNIQUE (bot_id, owner_scope, key)
    )`
  await sql`
    CREATE TABLE file_tags (
      file_id text COLLATE "C" NOT NULL REFERENCES files (id) ON DELETE CASCADE,
      bot_id text COLLATE "C" NOT NULL,
      tag_key text COLLATE "C" NOT NULL,
      tag_value text COLLATE "C" NOT NULL,
      PRIMARY KEY (file_id, tag_key)
    )`
}

function notInThisBackend(port: string): never {
  throw new Error(`${port} is not part of the search test backend (it holds files and search only)`)
}

/** `target`, where any member it lacks fails saying so (`then` and symbols stay absent: it is no promise). */
function only<T extends object>(target: T, label: string): T {
  return new Proxy(target, {
    get: (object, name) => (typeof name === 'symbol' || name === 'then' || name in object ? (object as Record<string | symbol, unknown>)[name] : notInThisBackend(`${label}${name}`)),
  })
}

/** The files operations the search contract calls, on the minimal table: enough to drive the search index. */
function minimalFilesPort(sql: PgSql, now: Clock): FilesPort {
  const read = async (id: string): Promise<FileRecord | undefined> => {
    const [row] = await sql`SELECT record_json FROM files WHERE id = ${id}`
    return row ? (JSON.parse(String(row['record_json'])) as FileRecord) : undefined
  }
  const write = async (record: FileRecord): Promise<FileRecord> => {
    await sql`
      INSERT INTO files (id, bot_id, key, owner_scope, policy_integrations, expires_at, record_json)
      VALUES (${record.id}, ${record.botId}, ${record.key}, ${record.ownerScope}, ${record.accessPolicies.includes('integrations')}, ${record.expiresAt}, ${JSON.stringify(record)})
      ON CONFLICT (id) DO UPDATE SET policy_integrations = excluded.policy_integrations, expires_at = excluded.expires_at, record_json = excluded.record_json`
    await replaceTags(sql, 'file_tags', record.id, record.botId, record.tags)
    return record
  }
  const methods: Partial<FilesPort> = {
    getById: async (botId, id) => {
      const record = await read(id)
      return record?.botId === botId ? record : undefined
    },
    async upsert(input: UpsertFileInput) {
      const stamp = now().toISOString()
      const [row] = await sql`SELECT id FROM files WHERE bot_id = ${input.botId} AND owner_scope = ${input.ownerScope} AND key = ${input.key}`
      const existing = row ? await read(String(row['id'])) : undefined
      const record: FileRecord = {
        ...(existing ?? { id: `file_${randomUUID()}`, createdAt: stamp, version: 0, indexGeneration: 0, contentVersion: null, blobId: null, size: null, sha256: null, blobContentType: null }),
        ...input,
        status: 'upload_pending',
        failedStatusReason: null,
        updatedAt: stamp,
        version: (existing?.version ?? 0) + 1,
        declaredSize: input.size,
        indexingStack: null,
        indexingConfiguration: input.indexingConfiguration ?? null,
      } as FileRecord
      return { file: await write(record), created: existing === undefined, unreferencedBlobIds: [] }
    },
    async completeUpload(fileId, version, blob) {
      const record = await read(fileId)
      if (!record || record.version !== version) throw new Error(`no upload ${fileId} v${version}`)
      const next: FileRecord = {
        ...record,
        ...blob,
        contentVersion: version,
        status: record.index ? 'indexing_pending' : 'upload_completed',
        indexGeneration: record.index ? record.indexGeneration + 1 : record.indexGeneration,
      }
      return { file: await write(next), unreferencedBlobId: null }
    },
    async requestIndexing(fileId) {
      const record = (await read(fileId))!
      return write({ ...record, status: 'indexing_pending', failedStatusReason: null, indexGeneration: record.indexGeneration + 1 })
    },
    async finishIndexing(fileId, generation, outcome) {
      const record = await read(fileId)
      if (!record || record.status !== 'indexing_pending' || record.indexGeneration !== generation) return undefined
      return outcome.status === 'indexing_completed'
        ? write({ ...record, status: 'indexing_completed', indexingStack: 'v1' })
        : write({ ...record, status: 'indexing_failed', failedStatusReason: outcome.reason })
    },
    async delete(fileId) {
      await sql`DELETE FROM files WHERE id = ${fileId}`
      return []
    },
    async deleteExpired() {
      const result = await sql`DELETE FROM files WHERE expires_at IS NOT NULL AND expires_at <= ${now().toISOString()}`
      return { deleted: result.count, files: [], unreferencedBlobIds: [] }
    },
  }
  return only(methods as FilesPort, 'files.')
}

function ports(sql: PgSql, now: Clock, vectors: VectorMode): BackendPorts {
  const partial = { files: minimalFilesPort(sql, now), search: createPostgresSearchPort(sql, { now, vectors }) }
  return only(partial as unknown as BackendPorts, '')
}

/**
 * A backend of two ports for the search contract on PostgreSQL: the PostgreSQL search index, and a minimal files
 * port over a files table with the columns the index reads (the full PostgreSQL files port is another module).
 * `sql` must be a fresh schema: the tables are created here, then the search migrations run.
 *
 * @example
 * ```ts
 * const backend = await openSearchTestBackend(sql, now, 'exact')
 * ```
 */
export async function openSearchTestBackend(sql: PgSql, now: Clock, vectors: VectorMode): Promise<Backend> {
  const begin = (fn: (tx: PgSql) => Promise<unknown>): Promise<unknown> => {
    if ('savepoint' in sql) return fn(sql)
    return sql.begin((tx) => fn(tx))
  }
  await begin(createMinimalFilesTables)
  for (const migration of postgresSearchMigrations({ vectors })) await begin((tx) => migration.up(tx as never))
  const root = ports(sql, now, vectors)
  const backend = {
    kind: `postgres-search-${vectors}`,
    now,
    files: root.files,
    search: root.search,
    transaction: <T>(fn: (tx: BackendPorts) => Promise<T>) => begin((tx) => fn(ports(tx, now, vectors))) as Promise<T>,
  }
  return only(backend as unknown as Backend, '')
}
