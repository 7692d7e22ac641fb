import type { File } from 'botshelf/api'
import type { BlobStore } from '../blobs/index.js'
import type { FileRecord } from '../store/index.js'
import { contentUrlFor, type UrlLifetimes } from './content-urls.js'

/** What turning a record into a wire File needs: the signing key, the public base URL, the clock, lifetimes. */
export interface FileViewContext {
  signingKey: Buffer
  base: string
  now: Date
  lifetimes: UrlLifetimes
  /** The blob store, when it may presign private files' temporary URLs (`presignedReadUrl`). */
  blobs?: Pick<BlobStore, 'presignedReadUrl'>
}

/**
 * The wire File object (docs/wire-format.md §10) of a stored file, with a fresh content `url`.
 *
 * @example
 * ```ts
 * const file = toWireFile(record, { signingKey, base: 'http://localhost:3000', now: new Date(), lifetimes })
 * ```
 */
export function toWireFile(record: FileRecord, context: FileViewContext): File {
  return {
    id: record.id,
    botId: record.botId,
    key: record.key,
    url: contentUrlFor(context.signingKey, context.base, record, context.now, context.lifetimes, context.blobs),
    size: record.size,
    contentType: record.contentType,
    tags: record.tags,
    metadata: record.metadata,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    accessPolicies: record.accessPolicies,
    index: record.index,
    status: record.status,
    ...(record.failedStatusReason !== null ? { failedStatusReason: record.failedStatusReason } : {}),
    ...(record.expiresAt !== null ? { expiresAt: record.expiresAt } : {}),
    owner: record.owner,
    ...(record.status === 'indexing_completed' && record.indexingStack ? { indexingStack: record.indexingStack } : {}),
  }
}
