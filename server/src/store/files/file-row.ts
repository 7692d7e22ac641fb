import type { AccessPolicy, FileOwner, FileStatus } from 'botshelf/api'
import type { FileRecord } from './types.js'

/**
 * A row of the `files` table joined with its current blob, as both SQL engines return it: the same column names
 * and meanings on SQLite and PostgreSQL (only `index_requested` differs: 0/1 on SQLite, a boolean on PostgreSQL).
 */
export interface FileRow {
  id: string
  bot_id: string
  key: string
  owner_scope: string
  owner_json: string
  content_type: string
  tags_json: string
  metadata_json: string
  access_policies_json: string
  index_requested: number | boolean
  status: FileStatus
  failed_status_reason: string | null
  expires_at: string | null
  created_at: string
  updated_at: string
  version: number
  declared_size: number
  content_version: number | null
  blob_id: string | null
  size: number | null
  sha256: string | null
  blob_content_type: string | null
  index_generation: number
  indexing_stack: string | null
  indexing_configuration_json: string | null
}

/**
 * The port's record of a file row: JSON columns parsed, the index flag made a boolean.
 *
 * @example
 * const file = fileRowToRecord(db.prepare('SELECT ... FROM files f ... WHERE f.id = ?').get(id) as FileRow)
 */
export function fileRowToRecord(row: FileRow): FileRecord {
  return {
    id: row.id,
    botId: row.bot_id,
    key: row.key,
    ownerScope: row.owner_scope,
    owner: JSON.parse(row.owner_json) as FileOwner,
    contentType: row.content_type,
    tags: JSON.parse(row.tags_json) as Record<string, string>,
    metadata: JSON.parse(row.metadata_json) as Record<string, unknown>,
    accessPolicies: JSON.parse(row.access_policies_json) as AccessPolicy[],
    index: row.index_requested === true || row.index_requested === 1,
    status: row.status,
    failedStatusReason: row.failed_status_reason,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
    declaredSize: row.declared_size,
    contentVersion: row.content_version,
    blobId: row.blob_id,
    size: row.size,
    sha256: row.sha256,
    blobContentType: row.blob_content_type,
    indexGeneration: row.index_generation,
    indexingStack: row.indexing_stack === 'v1' ? 'v1' : null,
    indexingConfiguration:
      row.indexing_configuration_json === null ? null : (JSON.parse(row.indexing_configuration_json) as Record<string, unknown>),
  }
}

/**
 * One keyset page of sorted values fetched with one extra row: the page, and the last value as the next cursor
 * position when the extra row shows there is more.
 *
 * @example
 * pageOfValues(['a', 'b', 'c'], 2) // { items: ['a', 'b'], next: 'b' }
 */
export function pageOfValues(values: string[], pageSize: number): { items: string[]; next?: string } {
  const more = values.length > pageSize
  const items = more ? values.slice(0, pageSize) : values
  const last = items[items.length - 1]
  return { items, ...(more && last !== undefined ? { next: last } : {}) }
}

/**
 * The stored form of a file's indexing configuration: JSON text, or null when none was given.
 *
 * @example
 * indexingConfigurationJson({ chunking: { maximumChunkLength: 800 } }) // '{"chunking":{"maximumChunkLength":800}}'
 */
export function indexingConfigurationJson(configuration: Record<string, unknown> | null | undefined): string | null {
  return configuration ? JSON.stringify(configuration) : null
}
