import type { PagePosition } from '../page.js'
import type { AccessPolicy, FileOwner, FileStatus, NormalizedTagCondition } from 'botshelf/api'

/**
 * Which files of a bot a list may show: every file (bot, members), or those an integration may see (its own,
 * and the ones with the `integrations` policy). Computed by the server's permission module.
 */
export type FilesAccessScope = { kind: 'all' } | { kind: 'integration'; integrationName: string }

/** A file row as the store holds it: the wire fields plus version and content bookkeeping. */
export interface FileRecord {
  id: string
  botId: string
  key: string
  /** `''` for files of the bot or of members, the integration name for files an integration owns. */
  ownerScope: string
  owner: FileOwner
  contentType: string
  tags: Record<string, string>
  metadata: Record<string, unknown>
  accessPolicies: AccessPolicy[]
  index: boolean
  status: FileStatus
  failedStatusReason: string | null
  expiresAt: string | null
  createdAt: string
  updatedAt: string
  /** Latest version started by upsertFile; an upload URL is bound to one version. */
  version: number
  /** Size declared by the latest upsertFile. */
  declaredSize: number
  /** Version of the readable content, `null` before the first completed upload. */
  contentVersion: number | null
  blobId: string | null
  size: number | null
  sha256: string | null
  blobContentType: string | null
  /** Bumped by each request to (re)index the file; an indexing job carries the one it serves. */
  indexGeneration: number
  /** `v1` once an indexing completed, else `null`. */
  indexingStack: 'v1' | null
  /** The `indexing.configuration` of the latest upsertFile (validated by the API), or `null`. */
  indexingConfiguration: Record<string, unknown> | null
}

/** Sort fields of `listFiles`. */
export type FileSortField = 'key' | 'size' | 'createdAt' | 'updatedAt' | 'status'

/** Where a page of files ended (keyset pagination). */
export type FilePosition = PagePosition

/** Query of {@link FilesRepository.list}. */
export interface FileListQuery {
  botId: string
  scope: FilesAccessScope
  tags?: ReadonlyArray<NormalizedTagCondition>
  ids?: ReadonlyArray<string>
  indexed?: boolean
  sortField: FileSortField
  sortDirection: 'asc' | 'desc'
  pageSize: number
  after?: FilePosition
}

/** Input of {@link FilesRepository.upsert}. */
export interface UpsertFileInput {
  botId: string
  key: string
  ownerScope: string
  owner: FileOwner
  size: number
  contentType: string
  tags: Record<string, string>
  metadata: Record<string, unknown>
  accessPolicies: AccessPolicy[]
  index: boolean
  expiresAt: string | null
  /** The `indexing.configuration` to keep for the indexing job (default none). */
  indexingConfiguration?: Record<string, unknown> | null
}

/**
 * Decides, inside an upsert, whether the caller may act given the unexpired file already at the key in the caller's
 * owner scope (`undefined`: none). Throw to refuse: nothing is written. It must depend on its argument alone: a port
 * may ask it about "no file" first (PostgreSQL creates the row of a free key in one statement when that is accepted)
 * and then about the file it finds at the key, which is the answer that decides.
 *
 * @example
 * ```ts
 * const check: ExistingFileCheck = (existing) => { if (existing && existing.owner.id !== me) throw new Error('not yours') }
 * await backend.files.upsert(input, check)
 * ```
 */
export type ExistingFileCheck = (existing: FileRecord | undefined) => void

/** A patch of {@link FilesRepository.updateMetadata}: merges with `null` deleting, policies replace. */
export interface FileMetadataPatch {
  metadata?: Record<string, unknown>
  tags?: Record<string, string | null>
  accessPolicies?: AccessPolicy[]
  expiresAt?: string | null
  /** `true` marks the file to index (a file linked to a knowledge base later, decision 1436); never turns it off. */
  index?: true
}

/** Result of a content commit: the updated file and a blob no row references any more (to delete). */
export interface CompleteUploadResult {
  file: FileRecord
  unreferencedBlobId: string | null
}

/** A knowledge base: a name and tags. */
export interface KnowledgeBaseRecord {
  id: string
  botId: string
  name: string
  tags: Record<string, string>
  createdAt: string
  updatedAt: string
}


/** Where a copy goes: the bot, the key and the owner of the new file. */
export interface FileOwnerRef {
  botId: string
  key: string
  ownerScope: string
  owner: FileOwner
}
