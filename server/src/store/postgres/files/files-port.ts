import type postgres from 'postgres'
import type { Clock } from '../../clock.js'
import { FilesStoreError } from '../../files/errors.js'
import type { FilesPort, FilesUsage } from '../../files/files-port.js'
import { mergePatch } from '../../files/merge-patch.js'
import { copiedFileRecord, newFileRecord } from '../../files/new-file-record.js'
import { afterUploadStatusSql, fileStatusTransitions, statusLiteral } from '../../files/file-status.js'
import { fileRowToRecord, indexingConfigurationJson, pageOfValues, type FileRow } from '../../files/file-row.js'
import type {
  CompleteUploadResult,
  ExistingFileCheck,
  FileListQuery,
  FileMetadataPatch,
  FileOwnerRef,
  FilePosition,
  FileRecord,
  FileSortField,
  FilesAccessScope,
  UpsertFileInput,
} from '../../files/types.js'
import type { PgScope } from '../pg-scope.js'
import type { PgSql } from '../pg-types.js'
import { insertTags, replaceTags, tagConditions } from '../tag-sql.js'
import { hasNul } from '../text-limits.js'



/** The sort expression of each sort field: the same values, hence the same order and cursors, as on SQLite. */
function sortExpression(sql: PgSql, field: FileSortField): postgres.PendingQuery<postgres.Row[]> {
  switch (field) {
    case 'key':
      return sql`f.key`
    case 'size':
      return sql`coalesce(f.size, -1)`
    case 'createdAt':
      return sql`f.created_at`
    case 'updatedAt':
      return sql`f.updated_at`
    case 'status':
      return sql`f.status`
  }
}

function scopeCondition(sql: PgSql, scope: FilesAccessScope): postgres.PendingQuery<postgres.Row[]> {
  return scope.kind === 'all' ? sql`true` : sql`(f.owner_scope = ${scope.integrationName} OR f.policy_integrations)`
}

function notExpired(sql: PgSql, now: Date): postgres.PendingQuery<postgres.Row[]> {
  return sql`(f.expires_at IS NULL OR f.expires_at > ${now.toISOString()})`
}


/**
 * The files port on PostgreSQL: the model, the statements' meaning and the keyset order of the SQLite adapter
 * (tag side tables, byte-wise text order, ISO times), so every answer and cursor is the same on both. Calls of
 * several statements run in one transaction (`PgScope.atomic`).
 *
 * @example
 * ```ts
 * const files = new PgFilesPort(rootScope(sql), systemClock)
 * const { file } = await files.upsert(input)
 * ```
 */
export class PgFilesPort implements FilesPort {
  constructor(
    private readonly scope: PgScope,
    private readonly now: Clock,
  ) {}

  /**
   * A file of a bot by id, unless expired.
   *
   * @example
   * ```ts
   * await files.getById(botId, 'file_01K...')
   * ```
   */
  async getById(botId: string, id: string): Promise<FileRecord | undefined> {
    if (hasNul(botId, id)) return undefined
    const sql = this.scope.sql
    const [row] = await sql<FileRow[]>`SELECT * FROM files f WHERE f.bot_id = ${botId} AND f.id = ${id} AND ${notExpired(sql, this.now())}`
    return row ? fileRowToRecord(row) : undefined
  }

  /**
   * A file by id whatever its bot, unless expired.
   *
   * @example
   * ```ts
   * await files.getAnyById('file_01K...')
   * ```
   */
  async getAnyById(id: string): Promise<FileRecord | undefined> {
    if (hasNul(id)) return undefined
    const sql = this.scope.sql
    const [row] = await sql<FileRow[]>`SELECT * FROM files f WHERE f.id = ${id} AND ${notExpired(sql, this.now())}`
    return row ? fileRowToRecord(row) : undefined
  }

  /**
   * Every file of a bot with this key, one per owner scope, oldest first, unless expired.
   *
   * @example
   * ```ts
   * await files.getByKey(botId, 'reports/q3.pdf')
   * ```
   */
  async getByKey(botId: string, key: string): Promise<FileRecord[]> {
    if (hasNul(botId, key)) return []
    const sql = this.scope.sql
    const rows = await sql<FileRow[]>`
      SELECT * FROM files f WHERE f.bot_id = ${botId} AND f.key = ${key} AND ${notExpired(sql, this.now())} ORDER BY f.created_at, f.id`
    return rows.map(fileRowToRecord)
  }

  /**
   * Creates the file or starts a new version of the key in the same owner scope; an expired row with the key is
   * replaced by a new file (its blob returned for deletion). `check` sees the unexpired file at the key first (in the
   * same transaction, the row locked); what it throws rolls everything back.
   *
   * @example
   * ```ts
   * const { file, created } = await files.upsert(input, (existing) => authorize(existing))
   * ```
   */
  async upsert(input: UpsertFileInput, check?: ExistingFileCheck): Promise<{ file: FileRecord; created: boolean; unreferencedBlobIds: string[] }> {
    const now = this.now()
    const nowIso = now.toISOString()
    // The check runs once, before any write. When it accepts a new file and no row holds the key (the common case),
    // one statement creates the row and its tags, atomic on its own (the unique key decides: `ON CONFLICT DO
    // NOTHING`). A key that is taken, live or expired, goes the way below, which locks and reads the row; the check
    // sees the live row there, or keeps the answer it gave for no file.
    const answerForNoFile = checkOutcome(check, undefined)
    if (answerForNoFile.ok) {
      const inserted = await insertNewFile(this.scope.sql, newFileRecord(input, now, nowIso))
      if (inserted) return { file: fileRowToRecord(inserted), created: true, unreferencedBlobIds: [] }
    }
    return this.scope.atomic(async (sql) => {
      const [existing] = await sql<FileRow[]>`
        SELECT * FROM files WHERE bot_id = ${input.botId} AND owner_scope = ${input.ownerScope} AND key = ${input.key} FOR UPDATE`
      const current = existing && (existing.expires_at === null || existing.expires_at > nowIso) ? existing : undefined
      if (current) check?.(fileRowToRecord(current))
      else if (!answerForNoFile.ok) throw answerForNoFile.error
      const unreferencedBlobIds: string[] = []
      let row: FileRow
      let created: boolean
      if (current) {
        created = false
        const [updated] = await sql<FileRow[]>`
          UPDATE files SET content_type = ${input.contentType}, tags_json = ${JSON.stringify(input.tags)},
            metadata_json = ${JSON.stringify(input.metadata)}, access_policies_json = ${JSON.stringify(input.accessPolicies)},
            policy_public = ${input.accessPolicies.includes('public_content')}, policy_integrations = ${input.accessPolicies.includes('integrations')},
            index_requested = ${input.index}, status = ${sql.unsafe(statusLiteral(fileStatusTransitions.newVersion))}, failed_status_reason = NULL, expires_at = ${input.expiresAt},
            updated_at = ${nowIso}, version = version + 1, declared_size = ${input.size},
            indexing_configuration_json = ${indexingConfigurationJson(input.indexingConfiguration)}
          WHERE id = ${current.id} RETURNING *`
        row = updated!
      } else {
        if (existing) unreferencedBlobIds.push(...(await deleteRow(sql, existing.id)))
        created = true
        row = await insertRow(sql, newFileRecord(input, now, nowIso))
      }
      await replaceTags(sql, 'file_tags', row.id, input.botId, input.tags)
      return { file: fileRowToRecord(row), created, unreferencedBlobIds }
    })
  }

  /**
   * Makes a written blob the readable content of `version` if it is still the latest; otherwise `FILE_GONE` or
   * `VERSION_SUPERSEDED`.
   *
   * @example
   * ```ts
   * const { file, unreferencedBlobId } = await files.completeUpload(id, 1, { blobId, size: 5, sha256 })
   * ```
   */
  async completeUpload(fileId: string, version: number, blob: { blobId: string; size: number; sha256: string }): Promise<CompleteUploadResult> {
    // One statement in the (serializable) transaction: the row locked, the version checked, the content switched and
    // the previous blob's other references counted in one round trip instead of three. Every part reads the snapshot
    // before the update, so the row itself is left out of the count.
    const [found] = await this.scope.atomic((sql) => sql<Array<FileRow & { found_version: number; previous_blob_id: string | null; previous_referenced: boolean; updated_id: string | null }>>`
      WITH current AS (SELECT id, version, blob_id FROM files WHERE id = ${fileId} FOR UPDATE),
      updated AS (
        UPDATE files f SET status = ${sql.unsafe(afterUploadStatusSql('f.index_requested'))},
          index_generation = f.index_generation + CASE WHEN f.index_requested THEN 1 ELSE 0 END,
          failed_status_reason = NULL, updated_at = ${this.now().toISOString()},
          content_version = ${version}, blob_id = ${blob.blobId}, size = ${blob.size}, sha256 = ${blob.sha256}, blob_content_type = f.content_type
        FROM current c WHERE f.id = c.id AND c.version = ${version}
        RETURNING f.*)
      SELECT u.*, u.id AS updated_id, c.version AS found_version, c.blob_id AS previous_blob_id,
        EXISTS (SELECT 1 FROM files o WHERE o.blob_id = c.blob_id AND o.id <> c.id) AS previous_referenced
      FROM current c LEFT JOIN updated u ON true`)
    if (!found) throw new FilesStoreError('FILE_GONE', 'The file was deleted during the upload', { id: fileId })
    if (found.updated_id === null) throw new FilesStoreError('VERSION_SUPERSEDED', 'A later upsertFile replaced this version during the upload', { id: fileId })
    const previous = found.previous_blob_id
    const unreferencedBlobId = previous && previous !== blob.blobId && !found.previous_referenced ? previous : null
    return { file: fileRowToRecord(found), unreferencedBlobId }
  }

  /**
   * Marks the upload of `version` failed, unless a later version started or its content already landed.
   *
   * @example
   * ```ts
   * await files.failUpload(file.id, 1, 'content has 3 bytes but 5 were declared')
   * ```
   */
  async failUpload(fileId: string, version: number, reason: string): Promise<FileRecord | undefined> {
    const [row] = await this.scope.sql<FileRow[]>`
      UPDATE files SET status = ${this.scope.sql.unsafe(statusLiteral(fileStatusTransitions.uploadFailed))}, failed_status_reason = ${reason}, updated_at = ${this.now().toISOString()}
      WHERE id = ${fileId} AND version = ${version} AND (content_version IS NULL OR content_version <> version) RETURNING *`
    return row ? fileRowToRecord(row) : undefined
  }

  /**
   * Starts a new indexing request (setFilePassages): `indexing_pending`, the reason cleared, the generation bumped.
   * Returns the file with the generation its indexing job carries; `FILE_GONE` if it was deleted.
   *
   * @example
   * ```ts
   * const file = await files.requestIndexing(id)
   * await jobs.enqueue({ kind: 'files.index', payload: { fileId: id, generation: file.indexGeneration } })
   * ```
   */
  async requestIndexing(fileId: string): Promise<FileRecord> {
    const [row] = await this.scope.sql<FileRow[]>`
      UPDATE files SET status = ${this.scope.sql.unsafe(statusLiteral(fileStatusTransitions.indexingRequested))}, failed_status_reason = NULL, index_generation = index_generation + 1,
        updated_at = ${this.now().toISOString()}
      WHERE id = ${fileId} RETURNING *`
    if (!row) throw new FilesStoreError('FILE_GONE', 'The file was deleted', { id: fileId })
    return fileRowToRecord(row)
  }

  /**
   * Records the outcome of indexing request `generation` if it is still the latest and the file still waits for it;
   * `undefined` when a later request (or an upload) superseded it.
   *
   * @example
   * ```ts
   * await files.finishIndexing(id, 3, { status: 'indexing_failed', reason: 'the PDF is encrypted' })
   * ```
   */
  async finishIndexing(
    fileId: string,
    generation: number,
    outcome: { status: 'indexing_completed'; note?: string } | { status: 'indexing_failed'; reason: string },
  ): Promise<FileRecord | undefined> {
    const completed = outcome.status === 'indexing_completed'
    const [row] = await this.scope.sql<FileRow[]>`
      UPDATE files SET status = ${outcome.status}, failed_status_reason = ${completed ? (outcome.note ?? null) : outcome.reason},
        indexing_stack = CASE WHEN ${completed} THEN 'v1' ELSE indexing_stack END, updated_at = ${this.now().toISOString()}
      WHERE id = ${fileId} AND index_generation = ${generation} AND status = ${this.scope.sql.unsafe(statusLiteral(fileStatusTransitions.awaitingIndexing))} RETURNING *`
    return row ? fileRowToRecord(row) : undefined
  }

  /**
   * Merges metadata and tags (`null` deletes), replaces policies, sets or removes `expiresAt`.
   *
   * @example
   * ```ts
   * await files.updateMetadata(file.id, { tags: { draft: null } })
   * ```
   */
  async updateMetadata(fileId: string, patch: FileMetadataPatch): Promise<FileRecord> {
    return this.scope.atomic(async (sql) => {
      const [currentRow] = await sql<FileRow[]>`SELECT * FROM files WHERE id = ${fileId} FOR UPDATE`
      if (!currentRow) throw new FilesStoreError('FILE_GONE', 'The file was deleted meanwhile', { id: fileId })
      const current = fileRowToRecord(currentRow)
      const metadata = mergePatch(current.metadata, patch.metadata)
      const tags = mergePatch(current.tags, patch.tags) as Record<string, string>
      const policies = patch.accessPolicies ? [...new Set(patch.accessPolicies)] : current.accessPolicies
      const expiresAt = patch.expiresAt === undefined ? current.expiresAt : patch.expiresAt
      const [row] = await sql<FileRow[]>`
        UPDATE files SET metadata_json = ${JSON.stringify(metadata)}, tags_json = ${JSON.stringify(tags)},
          access_policies_json = ${JSON.stringify(policies)}, policy_public = ${policies.includes('public_content')},
          policy_integrations = ${policies.includes('integrations')}, expires_at = ${expiresAt}, updated_at = ${this.now().toISOString()},
          index_requested = index_requested OR ${patch.index === true}
        WHERE id = ${fileId} RETURNING *`
      if (patch.tags) await replaceTags(sql, 'file_tags', fileId, current.botId, tags)
      return fileRowToRecord(row!)
    })
  }

  /**
   * Copies a file's definition and content reference to a new key (the blob is shared); `replace` is deleted in
   * the same transaction.
   *
   * @example
   * ```ts
   * await files.copy(source, { botId, key: 'copy.txt', ownerScope: '', owner }, undefined)
   * ```
   */
  async copy(source: FileRecord, destination: FileOwnerRef, replace: FileRecord | undefined): Promise<{ file: FileRecord; unreferencedBlobIds: string[] }> {
    return this.scope.atomic(async (sql) => {
      const now = this.now()
      const unreferencedBlobIds = replace ? await deleteRow(sql, replace.id) : []
      const [stale] = await sql<Array<{ id: string }>>`
        SELECT id FROM files WHERE bot_id = ${destination.botId} AND owner_scope = ${destination.ownerScope} AND key = ${destination.key}`
      if (stale) unreferencedBlobIds.push(...(await deleteRow(sql, stale.id)))
      const row = await insertRow(sql, copiedFileRecord(source, destination, now))
      await insertTags(sql, 'file_tags', row.id, destination.botId, source.tags)
      return { file: fileRowToRecord(row), unreferencedBlobIds }
    })
  }

  /**
   * Deletes a file; returns the blobs no row references any more.
   *
   * @example
   * ```ts
   * for (const blobId of await files.delete(file.id)) await blobs.delete(blobId)
   * ```
   */
  async delete(fileId: string): Promise<string[]> {
    return this.scope.atomic((sql) => deleteRow(sql, fileId))
  }

  /**
   * Deletes every expired file; returns how many and the blobs to delete.
   *
   * @example
   * ```ts
   * const { deleted } = await files.deleteExpired()
   * ```
   */
  async deleteExpired(): Promise<{ deleted: number; files: FileRecord[]; unreferencedBlobIds: string[] }> {
    return this.scope.atomic(async (sql) => {
      const gone = await sql<FileRow[]>`
        DELETE FROM files WHERE expires_at IS NOT NULL AND expires_at <= ${this.now().toISOString()} RETURNING *`
      const candidates = [...new Set(gone.map((row) => row.blob_id).filter((id): id is string => id !== null))]
      const unreferencedBlobIds: string[] = []
      for (const blobId of candidates) if (!(await blobReferenced(sql, blobId))) unreferencedBlobIds.push(blobId)
      return { deleted: gone.length, files: gone.map(fileRowToRecord), unreferencedBlobIds }
    })
  }

  /**
   * Which of these blobs some row references, in one query (the blob sweep keeps those).
   *
   * @example
   * ```ts
   * await blobs.sweep((blobIds) => files.blobsInUse(blobIds))
   * ```
   */
  async blobsInUse(blobIds: ReadonlyArray<string>): Promise<Set<string>> {
    if (blobIds.length === 0) return new Set()
    const rows = await this.scope.sql<Array<{ blob_id: string }>>`SELECT DISTINCT blob_id FROM files WHERE blob_id = ANY(${[...blobIds]}::text[])`
    return new Set(rows.map((row) => row.blob_id))
  }

  /**
   * Files holding content and their content bytes, over the given bots (File Storage).
   *
   * @example
   * ```ts
   * await files.usage([botId]) // { files: 3, contentBytes: 1200 }
   * ```
   */
  async usage(botIds: ReadonlyArray<string>): Promise<FilesUsage> {
    if (botIds.length === 0) return { files: 0, contentBytes: 0 }
    const [row] = await this.scope.sql`
      SELECT count(*)::bigint AS files, coalesce(sum(size), 0)::bigint AS content_bytes FROM files
      WHERE size IS NOT NULL AND bot_id = ANY(${[...botIds]}::text[])`
    return { files: Number(row?.['files'] ?? 0), contentBytes: Number(row?.['content_bytes'] ?? 0) }
  }

  /**
   * One keyset page of files on (sort value, id), in the order and with the positions of every backend.
   *
   * @example
   * ```ts
   * await files.list({ botId, scope: { kind: 'all' }, sortField: 'key', sortDirection: 'asc', pageSize: 20 })
   * ```
   */
  async list(query: FileListQuery): Promise<{ items: FileRecord[]; next?: FilePosition }> {
    const sql = this.scope.sql
    const column = sortExpression(sql, query.sortField)
    const conditions = [sql`f.bot_id = ${query.botId}`, notExpired(sql, this.now()), scopeCondition(sql, query.scope)]
    if (query.tags && query.tags.length > 0) conditions.push(tagConditions(sql, query.tags, 'f', 'file_tags'))
    if (query.ids) conditions.push(query.ids.length === 0 ? sql`false` : sql`f.id IN ${sql([...query.ids])}`)
    if (query.indexed !== undefined) conditions.push(sql`f.index_requested = ${query.indexed}`)
    const ascending = query.sortDirection === 'asc'
    if (query.after) {
      const value = query.sortField === 'size' ? Number(query.after.value) : String(query.after.value)
      // A row comparison lets the index scan start at the position instead of filtering from the top.
      conditions.push(ascending ? sql`(${column}, f.id) > (${value}, ${query.after.id})` : sql`(${column}, f.id) < (${value}, ${query.after.id})`)
    }
    const where = conditions.reduce((all, part) => sql`${all} AND ${part}`)
    const order = ascending ? sql`${column} ASC, f.id ASC` : sql`${column} DESC, f.id DESC`
    const rows = await sql<Array<FileRow & { sort_value: string | number }>>`
      SELECT f.*, ${column} AS sort_value FROM files f WHERE ${where} ORDER BY ${order} LIMIT ${query.pageSize + 1}`
    const more = rows.length > query.pageSize
    const page = more ? rows.slice(0, query.pageSize) : rows
    const last = page[page.length - 1]
    return { items: page.map(fileRowToRecord), ...(more && last ? { next: { value: last.sort_value, id: last.id } } : {}) }
  }

  /**
   * One page of the distinct tag keys of the files in scope, sorted, after `after`.
   *
   * @example
   * ```ts
   * await files.listTagKeys({ botId, scope: { kind: 'all' }, pageSize: 20 })
   * ```
   */
  async listTagKeys(query: { botId: string; scope: FilesAccessScope; pageSize: number; after?: string }): Promise<{ items: string[]; next?: string }> {
    const sql = this.scope.sql
    const after = query.after !== undefined ? sql`AND t.tag_key > ${query.after}` : sql``
    const rows = await sql<Array<{ tag_key: string }>>`
      SELECT DISTINCT t.tag_key FROM file_tags t JOIN files f ON f.id = t.file_id
      WHERE t.bot_id = ${query.botId} AND ${notExpired(sql, this.now())} AND ${scopeCondition(sql, query.scope)} ${after}
      ORDER BY t.tag_key LIMIT ${query.pageSize + 1}`
    return pageOfValues(rows.map((row) => row.tag_key), query.pageSize)
  }

  /**
   * One page of the distinct values of one tag over the files in scope, sorted, after `after`.
   *
   * @example
   * ```ts
   * await files.listTagValues({ botId, tag: 'category', scope: { kind: 'all' }, pageSize: 20 })
   * ```
   */
  async listTagValues(query: { botId: string; tag: string; scope: FilesAccessScope; pageSize: number; after?: string }): Promise<{ items: string[]; next?: string }> {
    const sql = this.scope.sql
    const after = query.after !== undefined ? sql`AND t.tag_value > ${query.after}` : sql``
    const rows = await sql<Array<{ tag_value: string }>>`
      SELECT DISTINCT t.tag_value FROM file_tags t JOIN files f ON f.id = t.file_id
      WHERE t.bot_id = ${query.botId} AND t.tag_key = ${query.tag} AND ${notExpired(sql, this.now())} AND ${scopeCondition(sql, query.scope)} ${after}
      ORDER BY t.tag_value LIMIT ${query.pageSize + 1}`
    return pageOfValues(rows.map((row) => row.tag_value), query.pageSize)
  }
}


async function blobReferenced(sql: PgSql, blobId: string): Promise<boolean> {
  return (await sql`SELECT 1 FROM files WHERE blob_id = ${blobId} LIMIT 1`).length > 0
}

/** Deletes a row (its tags go by cascade); returns its blob if no other row uses it. */
async function deleteRow(sql: PgSql, fileId: string): Promise<string[]> {
  const [gone] = await sql<Array<{ blob_id: string | null }>>`DELETE FROM files WHERE id = ${fileId} RETURNING blob_id`
  const blobId = gone?.blob_id
  return blobId && !(await blobReferenced(sql, blobId)) ? [blobId] : []
}

/** What an upsert's check answers for `existing`: accepted, or the error it threw (the check is called once). */
function checkOutcome(check: ExistingFileCheck | undefined, existing: FileRecord | undefined): { ok: true } | { ok: false; error: unknown } {
  try {
    check?.(existing)
    return { ok: true }
  } catch (error) {
    return { ok: false, error }
  }
}

/** A new file's row and its tags in one statement, unless a row holds its (bot, owner scope, key): then undefined. */
async function insertNewFile(sql: PgSql, file: FileRecord): Promise<FileRow | undefined> {
  const entries = Object.entries(file.tags)
  const [row] = await sql<FileRow[]>`
    WITH inserted AS (${fileInsert(sql, file)} ON CONFLICT (bot_id, owner_scope, key) DO NOTHING RETURNING *),
    tagged AS (
      INSERT INTO file_tags (file_id, bot_id, tag_key, tag_value)
      SELECT inserted.id, inserted.bot_id, e.k, e.v
      FROM inserted, unnest(${entries.map(([key]) => key)}::text[], ${entries.map(([, value]) => value)}::text[]) AS e (k, v))
    SELECT * FROM inserted`
  return row
}

/** Inserts a file row (its tags are the caller's). */
async function insertRow(sql: PgSql, file: FileRecord): Promise<FileRow> {
  const [row] = await sql<FileRow[]>`${fileInsert(sql, file)} RETURNING *`
  return row!
}

/** The `INSERT INTO files … VALUES (…)` of a record, as a fragment. */
function fileInsert(sql: PgSql, file: FileRecord) {
  return sql`
    INSERT INTO files (id, bot_id, key, owner_scope, owner_json, content_type, tags_json, metadata_json, access_policies_json,
      policy_public, policy_integrations, index_requested, status, failed_status_reason, expires_at, created_at, updated_at,
      version, declared_size, content_version, blob_id, size, sha256, blob_content_type,
      index_generation, indexing_stack, indexing_configuration_json)
    VALUES (${file.id}, ${file.botId}, ${file.key}, ${file.ownerScope}, ${JSON.stringify(file.owner)}, ${file.contentType},
      ${JSON.stringify(file.tags)}, ${JSON.stringify(file.metadata)}, ${JSON.stringify(file.accessPolicies)},
      ${file.accessPolicies.includes('public_content')}, ${file.accessPolicies.includes('integrations')}, ${file.index}, ${file.status},
      ${file.failedStatusReason}, ${file.expiresAt}, ${file.createdAt}, ${file.updatedAt}, ${file.version}, ${file.declaredSize},
      ${file.contentVersion}, ${file.blobId}, ${file.size}, ${file.sha256}, ${file.blobContentType},
      ${file.indexGeneration}, ${file.indexingStack}, ${indexingConfigurationJson(file.indexingConfiguration)})`
}
