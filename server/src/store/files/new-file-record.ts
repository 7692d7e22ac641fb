import { newFileId } from './ids.js'
import type { FileRecord, UpsertFileInput } from './types.js'

/**
 * The record of a file an upsert creates: version 1 of the definition, `upload_pending`, no content yet. One
 * definition for both engines, so a new row is the same whichever writes it.
 *
 * @example
 * ```ts
 * const now = new Date()
 * const file = newFileRecord(input, now, now.toISOString()) // { id: 'file_01K…', version: 1, status: 'upload_pending', … }
 * ```
 */
export function newFileRecord(input: UpsertFileInput, now: Date, nowIso: string): FileRecord {
  return {
    id: newFileId(now),
    botId: input.botId,
    key: input.key,
    ownerScope: input.ownerScope,
    owner: input.owner,
    contentType: input.contentType,
    tags: input.tags,
    metadata: input.metadata,
    accessPolicies: input.accessPolicies,
    index: input.index,
    status: 'upload_pending',
    failedStatusReason: null,
    expiresAt: input.expiresAt,
    createdAt: nowIso,
    updatedAt: nowIso,
    version: 1,
    declaredSize: input.size,
    contentVersion: null,
    blobId: null,
    size: null,
    sha256: null,
    blobContentType: null,
    indexGeneration: 0,
    indexingStack: null,
    indexingConfiguration: input.indexingConfiguration ?? null,
  }
}
