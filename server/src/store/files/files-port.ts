import type { NormalizedTagCondition } from 'botshelf/api'
import type {
  CompleteUploadResult,
  ExistingFileCheck,
  FileListQuery,
  FileMetadataPatch,
  FileOwnerRef,
  FilePosition,
  FileRecord,
  FilesAccessScope,
  KnowledgeBaseRecord,
  UpsertFileInput,
} from './types.js'

/**
 * The files port: file rows with their versions and content bookkeeping, their tags, keyset pages. Content
 * bytes live in the `BlobStore`; a row references a blob by id. Methods that release a blob return its id for the
 * caller to delete once the change committed. Expired files are invisible to every read.
 *
 * @example
 * ```ts
 * const { file } = await backend.files.upsert({ botId, key: 'a.txt', ownerScope: '', owner: { type: 'bot', id: botId },
 *   size: 5, contentType: 'text/plain', tags: {}, metadata: {}, accessPolicies: [], index: false, expiresAt: null })
 * const page = await backend.files.list({ botId, scope: { kind: 'all' }, sortField: 'key', sortDirection: 'asc', pageSize: 20 })
 * ```
 */
/** File Storage of a set of bots: how many files hold content, and their content bytes. */
export interface FilesUsage {
  files: number
  contentBytes: number
}

export interface FilesPort {
  /** A file of a bot by id, unless expired. */
  getById(botId: string, id: string): Promise<FileRecord | undefined>
  /** A file by id whatever its bot (signed URLs carry only the file id), unless expired. */
  getAnyById(id: string): Promise<FileRecord | undefined>
  /** Every file of a bot with this key, one per owner scope, oldest first, unless expired. */
  getByKey(botId: string, key: string): Promise<FileRecord[]>
  /**
   * Creates the file or starts a new version of the key in the same owner scope (status `upload_pending`). `check`,
   * when given, sees the unexpired file already at the key in that owner scope (or `undefined`) first, atomically
   * with the write; what it throws rejects the call with nothing written.
   */
  upsert(input: UpsertFileInput, check?: ExistingFileCheck): Promise<{ file: FileRecord; created: boolean; unreferencedBlobIds: string[] }>
  /**
   * Makes a written blob the readable content of `version` if it is still the latest; otherwise rejects with
   * `FilesStoreError` `FILE_GONE` (deleted meanwhile) or `VERSION_SUPERSEDED` (a later upsert), and the caller
   * deletes its blob.
   */
  completeUpload(fileId: string, version: number, blob: { blobId: string; size: number; sha256: string }): Promise<CompleteUploadResult>
  /** Marks the upload of `version` failed with a reason, unless its content already landed. */
  failUpload(fileId: string, version: number, reason: string): Promise<FileRecord | undefined>
  /** Starts a new indexing request (setFilePassages): `indexing_pending`, generation bumped; returns the file. */
  requestIndexing(fileId: string): Promise<FileRecord>
  /**
   * Records the outcome of indexing request `generation` if it is still the latest and pending; `undefined` when
   * it was superseded (a later request, a re-upsert, a deletion). A completed file's `note` (indexing options that
   * were not applied, decision 1435) is kept as its `failedStatusReason`; without one the reason is cleared.
   */
  finishIndexing(
    fileId: string,
    generation: number,
    outcome: { status: 'indexing_completed'; note?: string } | { status: 'indexing_failed'; reason: string },
  ): Promise<FileRecord | undefined>
  /** Merges metadata and tags (`null` deletes), replaces policies, sets or removes `expiresAt`. */
  updateMetadata(fileId: string, patch: FileMetadataPatch): Promise<FileRecord>
  /** Copies a file's definition and content reference to a new key, possibly in another bot. */
  copy(source: FileRecord, destination: FileOwnerRef, replace: FileRecord | undefined): Promise<{ file: FileRecord; unreferencedBlobIds: string[] }>
  /** Deletes a file; returns the blobs no row references any more. */
  delete(fileId: string): Promise<string[]>
  /** Deletes every expired file; returns how many, the files as they were (for `file.deleted` events) and the blobs to delete. */
  deleteExpired(): Promise<{ deleted: number; files: FileRecord[]; unreferencedBlobIds: string[] }>
  /**
   * Which of these blobs some row references, in one query (the start's sweep asks a page of blobs at a time; one
   * blob is a batch of one).
   */
  blobsInUse(blobIds: ReadonlyArray<string>): Promise<ReadonlySet<string>>
  /**
   * Files with readable content and their content bytes, for these bots (File Storage accounting). Each file counts
   * its own size, even when copies share one stored blob: that is what the user stores.
   */
  usage(botIds: ReadonlyArray<string>): Promise<FilesUsage>
  /** One keyset page of files, sorted on (sort value, id). */
  list(query: FileListQuery): Promise<{ items: FileRecord[]; next?: FilePosition }>
  /** One page of the distinct tag keys of the files in scope, sorted, after `after`. */
  listTagKeys(query: { botId: string; scope: FilesAccessScope; pageSize: number; after?: string }): Promise<{ items: string[]; next?: string }>
  /** One page of the distinct values of one tag over the files in scope, sorted, after `after`. */
  listTagValues(query: {
    botId: string
    tag: string
    scope: FilesAccessScope
    pageSize: number
    after?: string
  }): Promise<{ items: string[]; next?: string }>
}

/**
 * The knowledge-bases port: a name and tags per knowledge base, listed newest first in keyset pages.
 *
 * @example
 * ```ts
 * const kb = await backend.knowledgeBases.create({ botId, name: 'Docs', tags: {} })
 * ```
 */
export interface KnowledgeBasesPort {
  /** Creates a knowledge base. */
  create(input: { botId: string; name: string; tags: Record<string, string> }): Promise<KnowledgeBaseRecord>
  /** A knowledge base of a bot by id. */
  get(botId: string, id: string): Promise<KnowledgeBaseRecord | undefined>
  /** Renames it and merges its tags (`null` deletes a tag); `undefined` when it does not exist. */
  update(botId: string, id: string, patch: { name: string; tags?: Record<string, string | null> }): Promise<KnowledgeBaseRecord | undefined>
  /** Deletes it; false when it did not exist. */
  delete(botId: string, id: string): Promise<boolean>
  /** One page, newest first, optionally filtered by tags. */
  list(query: {
    botId: string
    tags?: ReadonlyArray<NormalizedTagCondition>
    pageSize: number
    after?: FilePosition
  }): Promise<{ items: KnowledgeBaseRecord[]; next?: FilePosition }>
}
