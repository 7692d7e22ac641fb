import { FilesStoreError } from '../../files/errors.js'
import { mergePatch } from '../../files/merge-patch.js'
import { fileRowToRecord, indexingConfigurationJson, pageOfValues, type FileRow } from '../../files/file-row.js'
import type { FilesUsage } from '../../files/files-port.js'
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

import { copiedFileRecord, newFileRecord } from '../../files/new-file-record.js'
import { afterUploadStatusSql, fileStatusTransitions, statusLiteral } from '../../files/file-status.js'
import { replaceTags, tagConditionsSql } from '../tag-sql.js'
import { FileRecordCache } from './file-record-cache.js'
import { frozenFileRecord } from './frozen-file-record.js'
import type { Sqlite } from '../connect.js'
import { StatementCache } from '../tables/statements.js'
import type { Statement } from 'better-sqlite3'
import { systemClock, type Clock } from '../../clock.js'


const SORT_COLUMNS: Record<FileSortField, string> = {
  key: 'f.key',
  size: 'coalesce(f.size, -1)',
  createdAt: 'f.created_at',
  updatedAt: 'f.updated_at',
  status: 'f.status',
}


function scopeSql(scope: FilesAccessScope): { sql: string; params: unknown[] } {
  if (scope.kind === 'all') return { sql: '1 = 1', params: [] }
  return { sql: '(f.owner_scope = ? OR f.policy_integrations = 1)', params: [scope.integrationName] }
}

const NOT_EXPIRED = '(f.expires_at IS NULL OR f.expires_at > ?)'

/** {@link NOT_EXPIRED} in JavaScript: the same comparison of ISO strings, for the point reads kept in memory. */
function unexpired(file: FileRecord, nowIso: string): boolean {
  return file.expiresAt === null || file.expiresAt > nowIso
}

/** Oldest first, then by id: the order of the files of one key. */
function byCreationThenId(a: FileRow, b: FileRow): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

/**
 * Files persistence on the embedded SQLite database. Every method is synchronous and each write runs in one
 * transaction, so a reader never sees half an update. Expired files are invisible to reads even before the
 * sweeper deletes them.
 *
 * @example
 * ```ts
 * const files = new FilesRepository(db)
 * const file = files.upsert({ botId, key: 'a.txt', ownerScope: '', owner: { type: 'bot', id: botId }, size: 5,
 *   contentType: 'text/plain', tags: {}, metadata: {}, accessPolicies: [], index: false, expiresAt: null })
 * ```
 */
export class FilesRepository {
  /** Hot queries (getByKey, upsert) are compiled once per connection instead of on every call. */
  private readonly statements: StatementCache
  /** The point reads' files, kept while this connection wrote nothing and no other committed (decision 1231). */
  private readonly records: FileRecordCache

  constructor(
    private readonly db: Sqlite,
    private readonly now: Clock = systemClock,
  ) {
    this.statements = new StatementCache(db)
    this.records = new FileRecordCache(db)
    this.prepareTags = (sql) => this.statements.prepare(sql)
  }

  /** The tag side table's statements, from the same cache. */
  private readonly prepareTags: (sql: string) => Statement<unknown[]>

  /** The cached statement of `sql`, reset to whole rows: a caller may switch one use to `.pluck()`. */
  private statement(sql: string) {
    const statement = this.statements.prepare(sql)
    return statement.reader ? statement.pluck(false) : statement
  }

  /**
   * A file of a bot by id, unless expired. Frozen: it may be the same object other callers get (decision 1231).
   *
   * @example
   * ```ts
   * files.getById(botId, 'file_01K...')
   * ```
   */
  getById(botId: string, id: string): FileRecord | undefined {
    const nowIso = this.now().toISOString()
    const file = this.records.fileOfId(id, () => this.loadById(id))
    return file && file.botId === botId && unexpired(file, nowIso) ? file : undefined
  }

  /**
   * A file by id, whatever its bot (used by signed URLs, which carry the file id), unless expired. Frozen, like
   * `getById`.
   *
   * @example
   * ```ts
   * files.getAnyById('file_01K...')
   * ```
   */
  getAnyById(id: string): FileRecord | undefined {
    const nowIso = this.now().toISOString()
    const file = this.records.fileOfId(id, () => this.loadById(id))
    return file && unexpired(file, nowIso) ? file : undefined
  }

  /**
   * Every file of a bot with this key, one per owner scope, oldest first, unless expired. Frozen, like `getById`.
   *
   * @example
   * ```ts
   * files.getByKey(botId, 'reports/q3.pdf')
   * ```
   */
  getByKey(botId: string, key: string): FileRecord[] {
    const nowIso = this.now().toISOString()
    return this.records.filesOfKey(botId, key, () => this.loadByKey(botId, key)).filter((file) => unexpired(file, nowIso))
  }

  /** The row of an id, expired or not (the expiry is applied at each read: the answer may be kept). */
  private loadById(id: string): FileRecord | undefined {
    const row = this.statement('SELECT * FROM files f WHERE f.id = ?').get(id) as FileRow | undefined
    return row ? frozenFileRecord(row) : undefined
  }

  /** The rows of a key, expired or not, oldest first. */
  private loadByKey(botId: string, key: string): FileRecord[] {
    // No ORDER BY in SQL: with one, SQLite walked the bot's (bot_id, created_at) index to skip a sort and read every
    // file of the bot (2 ms at 20,000 files); the (bot_id, key) index finds the few rows of a key, sorted here.
    const rows = this.statement('SELECT * FROM files f WHERE f.bot_id = ? AND f.key = ?').all(botId, key) as FileRow[]
    if (rows.length > 1) rows.sort(byCreationThenId)
    return rows.map(frozenFileRecord)
  }

  /**
   * Creates the file, or starts a new version of the existing key in the same owner scope: the new definition
   * (tags, metadata, policies, type, expiry) replaces the old one and the status goes back to `upload_pending`,
   * while the previous content stays readable until the new upload completes. An expired row with the same key
   * is replaced by a new file. Returns the file and, when an expired row was dropped, its blob to delete.
   *
   * `check`, when given, sees the unexpired file already at the key in this owner scope (or `undefined`) before
   * anything is written; what it throws aborts the upsert with nothing changed (check-then-act in one statement
   * group: the row is read once).
   *
   * @example
   * ```ts
   * const { file } = files.upsert({ ...input, key: 'a.txt', size: 5 }, (existing) => { if (existing?.status === 'upload_failed') throw new Error('no') })
   * file.status // 'upload_pending'
   * ```
   */
  upsert(input: UpsertFileInput, check?: ExistingFileCheck): { file: FileRecord; created: boolean; unreferencedBlobIds: string[] } {
    return this.db.transaction(() => {
      const now = this.now()
      const nowIso = now.toISOString()
      const existing = this
        .statement('SELECT * FROM files WHERE bot_id = ? AND owner_scope = ? AND key = ?')
        .get(input.botId, input.ownerScope, input.key) as FileRow | undefined
      const current = existing && (existing.expires_at === null || existing.expires_at > nowIso) ? existing : undefined
      check?.(current ? fileRowToRecord(current) : undefined)
      const unreferencedBlobIds: string[] = []
      let row: FileRow
      let created: boolean
      if (current) {
        created = false
        row = this
          .statement(
            `UPDATE files SET content_type = ?, tags_json = ?, metadata_json = ?, access_policies_json = ?, policy_public = ?,
               policy_integrations = ?, index_requested = ?, status = ${statusLiteral(fileStatusTransitions.newVersion)}, failed_status_reason = NULL,
               expires_at = ?, updated_at = ?, version = version + 1, declared_size = ?, indexing_configuration_json = ? WHERE id = ?
             RETURNING *`,
          )
          .get(
            input.contentType,
            JSON.stringify(input.tags),
            JSON.stringify(input.metadata),
            JSON.stringify(input.accessPolicies),
            input.accessPolicies.includes('public_content') ? 1 : 0,
            input.accessPolicies.includes('integrations') ? 1 : 0,
            input.index ? 1 : 0,
            input.expiresAt,
            nowIso,
            input.size,
            indexingConfigurationJson(input.indexingConfiguration),
            current.id,
          ) as FileRow
      } else {
        if (existing) unreferencedBlobIds.push(...this.deleteRow(existing.id))
        created = true
        row = this.insertRow(newFileRecord(input, now, nowIso))
      }
      // A new id has no tags yet (an expired row's went with it, by cascade): only the inserts are needed.
      replaceTags(this.db, 'file_tags', row.id, input.botId, input.tags, { prepare: this.prepareTags, fresh: created })
      return { file: fileRowToRecord(row), created, unreferencedBlobIds }
    })()
  }

  /**
   * Makes an uploaded blob the readable content of `version`, atomically, if that version is still the latest
   * (otherwise a newer upsert or a delete happened: `FilesStoreError` `VERSION_SUPERSEDED` or `FILE_GONE`, and
   * the caller deletes its blob). Returns the blob no row uses
   * any more (the previous content), for the caller to delete after the commit.
   *
   * @example
   * ```ts
   * const { unreferencedBlobId } = files.completeUpload(file.id, 1, { blobId, size: 5, sha256 }) // or throws FilesStoreError
   * if (unreferencedBlobId) await blobs.delete(unreferencedBlobId)
   * ```
   */
  completeUpload(
    fileId: string,
    version: number,
    blob: { blobId: string; size: number; sha256: string }): CompleteUploadResult {
    const now = this.now()
    return this.db.transaction((): CompleteUploadResult => {
      const current = this.statement('SELECT version, blob_id FROM files WHERE id = ?').get(fileId) as Pick<FileRow, 'version' | 'blob_id'> | undefined
      if (!current) throw new FilesStoreError('FILE_GONE', 'The file was deleted during the upload', { id: fileId })
      if (current.version !== version) throw new FilesStoreError('VERSION_SUPERSEDED', 'A later upsertFile replaced this version during the upload', { id: fileId })
      const row = this
        .statement(
          // A file to index skips upload_completed; its new indexing generation is the one its job will carry.
          `UPDATE files SET status = ${afterUploadStatusSql('index_requested = 1')},
             index_generation = index_generation + index_requested, failed_status_reason = NULL, updated_at = ?,
             content_version = ?, blob_id = ?, size = ?, sha256 = ?, blob_content_type = content_type WHERE id = ?
           RETURNING *`,
        )
        .get(now.toISOString(), version, blob.blobId, blob.size, blob.sha256, fileId) as FileRow
      const previous = current.blob_id
      const unreferencedBlobId = previous && previous !== blob.blobId && !this.blobInUse(previous) ? previous : null
      return { file: fileRowToRecord(row), unreferencedBlobId }
    })()
  }

  /**
   * Marks the upload of `version` as failed with a reason, if that version is still the latest and its content
   * has not already landed. The previous content, if any, stays readable.
   *
   * @example
   * ```ts
   * files.failUpload(file.id, 1, 'content has 3 bytes but 5 were declared')
   * ```
   */
  failUpload(fileId: string, version: number, reason: string): FileRecord | undefined {
    const now = this.now()
    // A failed retry of a version whose content already landed does not undo that upload.
    const result = this
      .statement(
        `UPDATE files SET status = ${statusLiteral(fileStatusTransitions.uploadFailed)}, failed_status_reason = ?, updated_at = ?
         WHERE id = ? AND version = ? AND (content_version IS NULL OR content_version <> version)`,
      )
      .run(reason, now.toISOString(), fileId, version)
    if (result.changes === 0) return undefined
    return fileRowToRecord(this.statement('SELECT * FROM files WHERE id = ?').get(fileId) as FileRow)
  }

  /**
   * Starts a new indexing request for a file (setFilePassages): status `indexing_pending`, the reason cleared, the
   * generation bumped. Returns the file with its new generation, which the indexing job carries.
   *
   * @example
   * ```ts
   * const file = files.requestIndexing(id)
   * queue.enqueue({ kind: 'files.index', payload: { fileId: id, generation: file.indexGeneration } })
   * ```
   */
  requestIndexing(fileId: string): FileRecord {
    const now = this.now()
    return this.db.transaction(() => {
      const result = this
        .statement(
          `UPDATE files SET status = ${statusLiteral(fileStatusTransitions.indexingRequested)}, failed_status_reason = NULL, index_generation = index_generation + 1,
             updated_at = ? WHERE id = ?`,
        )
        .run(now.toISOString(), fileId)
      if (result.changes === 0) throw new FilesStoreError('FILE_GONE', 'The file was deleted', { id: fileId })
      return fileRowToRecord(this.statement('SELECT * FROM files WHERE id = ?').get(fileId) as FileRow)
    })()
  }

  /**
   * Records the outcome of indexing request `generation`, if it is still the file's latest and the file still waits
   * for it (`indexing_pending`); otherwise nothing changes and `undefined` says the request was superseded.
   *
   * @example
   * ```ts
   * files.finishIndexing(id, 3, { status: 'indexing_failed', reason: 'the PDF is encrypted' })
   * ```
   */
  finishIndexing(
    fileId: string,
    generation: number,
    outcome: { status: 'indexing_completed'; note?: string } | { status: 'indexing_failed'; reason: string },
  ): FileRecord | undefined {
    const now = this.now()
    const completed = outcome.status === 'indexing_completed'
    const result = this
      .statement(
        `UPDATE files SET status = ?, failed_status_reason = ?, indexing_stack = CASE WHEN ? THEN 'v1' ELSE indexing_stack END,
           updated_at = ? WHERE id = ? AND index_generation = ? AND status = ${statusLiteral(fileStatusTransitions.awaitingIndexing)}`,
      )
      .run(outcome.status, completed ? (outcome.note ?? null) : outcome.reason, completed ? 1 : 0, now.toISOString(), fileId, generation)
    if (result.changes === 0) return undefined
    return fileRowToRecord(this.statement('SELECT * FROM files WHERE id = ?').get(fileId) as FileRow)
  }

  /**
   * Merges metadata and tags (`null` deletes a key), replaces access policies, sets or removes `expiresAt`.
   * Content and status are never changed.
   *
   * @example
   * ```ts
   * files.updateMetadata(file.id, { tags: { draft: null }, accessPolicies: ['public_content'] })
   * ```
   */
  updateMetadata(fileId: string, patch: FileMetadataPatch): FileRecord {
    const now = this.now()
    return this.db.transaction(() => {
      const row = this.statement('SELECT * FROM files WHERE id = ?').get(fileId) as FileRow
      const current = fileRowToRecord(row)
      const metadata = mergePatch(current.metadata, patch.metadata)
      const tags = mergePatch(current.tags, patch.tags) as Record<string, string>
      const policies = patch.accessPolicies ? [...new Set(patch.accessPolicies)] : current.accessPolicies
      const expiresAt = patch.expiresAt === undefined ? current.expiresAt : patch.expiresAt
      this
        .statement(
          `UPDATE files SET metadata_json = ?, tags_json = ?, access_policies_json = ?, policy_public = ?, policy_integrations = ?,
             expires_at = ?, updated_at = ?, index_requested = max(index_requested, ?) WHERE id = ?`,
        )
        .run(
          JSON.stringify(metadata),
          JSON.stringify(tags),
          JSON.stringify(policies),
          policies.includes('public_content') ? 1 : 0,
          policies.includes('integrations') ? 1 : 0,
          expiresAt,
          now.toISOString(),
          patch.index === true ? 1 : 0,
          fileId,
        )
      if (patch.tags) replaceTags(this.db, 'file_tags', fileId, current.botId, tags)
      return fileRowToRecord(this.statement('SELECT * FROM files WHERE id = ?').get(fileId) as FileRow)
    })()
  }

  /**
   * Copies a file's definition and content (the blob is shared, not duplicated) to a new key, possibly in
   * another bot. When `replace` names an existing file, it is deleted in the same transaction.
   *
   * @example
   * ```ts
   * files.copy(source, { botId, key: 'copy.txt', ownerScope: '', owner: { type: 'bot', id: botId } }, undefined)
   * ```
   */
  copy(
    source: FileRecord,
    destination: FileOwnerRef,
    replace: FileRecord | undefined,
  ): { file: FileRecord; unreferencedBlobIds: string[] } {
    const now = this.now()
    return this.db.transaction(() => {
      const unreferencedBlobIds = replace ? this.deleteRow(replace.id) : []
      const stale = this
        .statement('SELECT id FROM files WHERE bot_id = ? AND owner_scope = ? AND key = ?')
        .pluck()
        .get(destination.botId, destination.ownerScope, destination.key) as string | undefined
      if (stale) unreferencedBlobIds.push(...this.deleteRow(stale))
      const { id } = this.insertRow(copiedFileRecord(source, destination, now))
      replaceTags(this.db, 'file_tags', id, destination.botId, source.tags)
      return { file: fileRowToRecord(this.statement('SELECT * FROM files WHERE id = ?').get(id) as FileRow), unreferencedBlobIds }
    })()
  }

  /**
   * Deletes a file. Returns the blobs no row references any more, for the caller to delete after the commit.
   *
   * @example
   * ```ts
   * for (const blobId of files.delete(file.id)) await blobs.delete(blobId)
   * ```
   */
  delete(fileId: string): string[] {
    return this.db.transaction(() => this.deleteRow(fileId))()
  }

  /**
   * Deletes every file whose `expiresAt` has passed. Returns how many, and the blobs to delete.
   *
   * @example
   * ```ts
   * const { deleted, unreferencedBlobIds } = files.deleteExpired()
   * ```
   */
  deleteExpired(): { deleted: number; files: FileRecord[]; unreferencedBlobIds: string[] } {
    const now = this.now()
    return this.db.transaction(() => {
      const rows = this.statement('SELECT * FROM files WHERE expires_at IS NOT NULL AND expires_at <= ?').all(now.toISOString()) as FileRow[]
      const unreferencedBlobIds = rows.flatMap((row) => this.deleteRow(row.id))
      return { deleted: rows.length, files: rows.map(fileRowToRecord), unreferencedBlobIds }
    })()
  }

  /** Whether any file row references a blob: the check a delete or a replacement makes inside its transaction. */
  private blobInUse(blobId: string): boolean {
    return this.statement('SELECT 1 FROM files WHERE blob_id = ? LIMIT 1').get(blobId) !== undefined
  }

  /**
   * Which of these blobs some file row references, in one statement (the blob sweep keeps those).
   *
   * @example
   * ```ts
   * await blobs.sweep((blobIds) => files.blobsInUse(blobIds))
   * ```
   */
  blobsInUse(blobIds: ReadonlyArray<string>): Set<string> {
    if (blobIds.length === 0) return new Set()
    const rows = this.statement('SELECT DISTINCT blob_id FROM files WHERE blob_id IN (SELECT value FROM json_each(?))').pluck().all(JSON.stringify(blobIds))
    return new Set(rows as string[])
  }

  /**
   * Files with readable content and their content bytes, for these bots (File Storage accounting).
   *
   * @example
   * ```ts
   * files.usage([botId]) // { files: 3, contentBytes: 10240 }
   * ```
   */
  usage(botIds: ReadonlyArray<string>): FilesUsage {
    if (botIds.length === 0) return { files: 0, contentBytes: 0 }
    const row = this.db
      .prepare(`SELECT count(*) AS files, coalesce(sum(size), 0) AS contentBytes FROM files WHERE size IS NOT NULL AND bot_id IN (${botIds.map(() => '?').join(', ')})`)
      .get(...botIds) as FilesUsage
    return { files: row.files, contentBytes: row.contentBytes }
  }

  /**
   * One page of files, keyset-paginated on (sort value, id): items that exist throughout a walk are never
   * skipped or repeated, whatever is inserted or deleted meanwhile (as long as their sort value does not change).
   * Returns up to `pageSize` items and the position to continue from when more exist.
   *
   * @example
   * ```ts
   * const page = files.list({ botId, scope: { kind: 'all' }, sortField: 'createdAt', sortDirection: 'desc', pageSize: 20 })
   * ```
   */
  list(query: FileListQuery): { items: FileRecord[]; next?: FilePosition } {
    const where: string[] = ['f.bot_id = ?', NOT_EXPIRED]
    const params: unknown[] = [query.botId, this.now().toISOString()]
    const scope = scopeSql(query.scope)
    where.push(scope.sql)
    params.push(...scope.params)
    if (query.tags && query.tags.length > 0) {
      const tags = tagConditionsSql(query.tags, 'f', 'file_tags')
      where.push(tags.sql)
      params.push(...tags.params)
    }
    if (query.ids) {
      if (query.ids.length === 0) where.push('0 = 1')
      else {
        where.push(`f.id IN (${query.ids.map(() => '?').join(', ')})`)
        params.push(...query.ids)
      }
    }
    if (query.indexed !== undefined) {
      where.push('f.index_requested = ?')
      params.push(query.indexed ? 1 : 0)
    }
    const column = SORT_COLUMNS[query.sortField]
    const op = query.sortDirection === 'asc' ? '>' : '<'
    if (query.after) {
      // A row-value comparison lets SQLite start the index scan at the position instead of filtering from the top.
      where.push(`(${column}, f.id) ${op} (?, ?)`)
      params.push(query.after.value, query.after.id)
    }
    const direction = query.sortDirection === 'asc' ? 'ASC' : 'DESC'
    const rows = this
      .statement(FilesRepository.listSql(column, where, direction))
      .all(...params, query.pageSize + 1) as Array<FileRow & { sort_value: string | number }>
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
   * files.listTagKeys({ botId, scope: { kind: 'all' }, pageSize: 20 })
   * ```
   */
  listTagKeys(query: { botId: string; scope: FilesAccessScope; pageSize: number; after?: string }): {
    items: string[]
    next?: string
  } {
    const scope = scopeSql(query.scope)
    const rows = this
      .statement(
        `SELECT DISTINCT t.tag_key FROM file_tags t JOIN files f ON f.id = t.file_id
         WHERE t.bot_id = ? AND ${NOT_EXPIRED} AND ${scope.sql} ${query.after !== undefined ? 'AND t.tag_key > ?' : ''}
         ORDER BY t.tag_key LIMIT ?`,
      )
      .pluck()
      .all(query.botId, this.now().toISOString(), ...scope.params, ...(query.after !== undefined ? [query.after] : []), query.pageSize + 1) as string[]
    return pageOfValues(rows, query.pageSize)
  }

  /**
   * One page of the distinct values of one tag over the files in scope, sorted, after `after`.
   *
   * @example
   * ```ts
   * files.listTagValues({ botId, tag: 'category', scope: { kind: 'all' }, pageSize: 20 })
   * ```
   */
  listTagValues(query: { botId: string; tag: string; scope: FilesAccessScope; pageSize: number; after?: string }): {
    items: string[]
    next?: string
  } {
    const scope = scopeSql(query.scope)
    const rows = this
      .statement(
        `SELECT DISTINCT t.tag_value FROM file_tags t JOIN files f ON f.id = t.file_id
         WHERE t.bot_id = ? AND t.tag_key = ? AND ${NOT_EXPIRED} AND ${scope.sql} ${query.after !== undefined ? 'AND t.tag_value > ?' : ''}
         ORDER BY t.tag_value LIMIT ?`,
      )
      .pluck()
      .all(
        query.botId,
        query.tag,
        this.now().toISOString(),
        ...scope.params,
        ...(query.after !== undefined ? [query.after] : []),
        query.pageSize + 1,
      ) as string[]
    return pageOfValues(rows, query.pageSize)
  }

  /**
   * The SQL of one list page (exposed so a test can check its query plan uses the indexes).
   *
   * @example
   * ```ts
   * FilesRepository.listSql('f.created_at', ['f.bot_id = ?'], 'DESC')
   * ```
   */
  static listSql(column: string, where: ReadonlyArray<string>, direction: 'ASC' | 'DESC'): string {
    return `SELECT f.*, ${column} AS sort_value FROM files f WHERE ${where.join(' AND ')} ORDER BY ${column} ${direction}, f.id ${direction} LIMIT ?`
  }

  /** Inserts a complete files row and returns it as stored; the tags side table is written separately (`replaceTags`). */
  private insertRow(file: FileRecord): FileRow {
    return this
      .statement(
        `INSERT INTO files (id, bot_id, key, owner_scope, owner_json, content_type, tags_json, metadata_json,
           access_policies_json, policy_public, policy_integrations, index_requested, status, failed_status_reason,
           expires_at, created_at, updated_at, version, declared_size, content_version, blob_id, size, sha256, blob_content_type,
           index_generation, indexing_stack, indexing_configuration_json)
         VALUES (@id, @botId, @key, @ownerScope, @ownerJson, @contentType, @tagsJson, @metadataJson,
           @accessPoliciesJson, @policyPublic, @policyIntegrations, @indexRequested, @status, @failedStatusReason,
           @expiresAt, @createdAt, @updatedAt, @version, @declaredSize, @contentVersion, @blobId, @size, @sha256, @blobContentType,
           @indexGeneration, @indexingStack, @indexingConfigurationJson)
         RETURNING *`,
      )
      .get({
        id: file.id,
        botId: file.botId,
        key: file.key,
        ownerScope: file.ownerScope,
        ownerJson: JSON.stringify(file.owner),
        contentType: file.contentType,
        tagsJson: JSON.stringify(file.tags),
        metadataJson: JSON.stringify(file.metadata),
        accessPoliciesJson: JSON.stringify(file.accessPolicies),
        policyPublic: file.accessPolicies.includes('public_content') ? 1 : 0,
        policyIntegrations: file.accessPolicies.includes('integrations') ? 1 : 0,
        indexRequested: file.index ? 1 : 0,
        status: file.status,
        failedStatusReason: file.failedStatusReason,
        expiresAt: file.expiresAt,
        createdAt: file.createdAt,
        updatedAt: file.updatedAt,
        version: file.version,
        declaredSize: file.declaredSize,
        contentVersion: file.contentVersion,
        blobId: file.blobId,
        size: file.size,
        sha256: file.sha256,
        blobContentType: file.blobContentType,
        indexGeneration: file.indexGeneration,
        indexingStack: file.indexingStack,
        indexingConfigurationJson: indexingConfigurationJson(file.indexingConfiguration),
      }) as FileRow
  }

  /** Deletes a row (inside the caller's transaction); returns its blob if no other row uses it. */
  private deleteRow(fileId: string): string[] {
    const blobId = this.statement('SELECT blob_id FROM files WHERE id = ?').pluck().get(fileId) as string | null | undefined
    this.statement('DELETE FROM files WHERE id = ?').run(fileId)
    return blobId && !this.blobInUse(blobId) ? [blobId] : []
  }
}


