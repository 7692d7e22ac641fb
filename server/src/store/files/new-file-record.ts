import { fileStatusTransitions, statusAfterUpload } from './file-status.js'
import { newFileId } from './ids.js'
import type { FileOwnerRef, FileRecord, UpsertFileInput } from './types.js'

/**
 * The record of a file an upsert creates: version 1 of the definition, `upload_pending`, no content yet. One
 * definition for both engines, so a new row is the same whichever writes it.
 *
 * @example
 * ```ts
 * const now = new Date()
 * const file = newFileRecord(input, now, now.toISOString()) // { id: 'file_01K…', version: 1, status: fileStatusTransitions.newVersion, … }
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
    status: fileStatusTransitions.newVersion,
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

/**
 * The record of a copy of `source` at `destination`: version 1, the content (blob) shared. One definition for both
 * engines. A copy of completed content is complete (or waits for its own indexing); a copy of a failed definition
 * keeps its failure.
 *
 * @example
 * ```ts
 * const now = new Date()
 * const copy = copiedFileRecord(source, { botId, key: 'copy.txt', ownerScope: '', owner }, now) // { status: 'upload_completed', version: 1, … }
 * ```
 */
export function copiedFileRecord(source: FileRecord, destination: FileOwnerRef, now: Date): FileRecord {
  const nowIso = now.toISOString()
  return {
    ...source,
    id: newFileId(now),
    botId: destination.botId,
    key: destination.key,
    ownerScope: destination.ownerScope,
    owner: destination.owner,
    status: source.blobId ? statusAfterUpload(source.index) : source.status,
    indexGeneration: source.blobId && source.index ? 1 : 0,
    indexingStack: null,
    failedStatusReason: source.blobId ? null : source.failedStatusReason,
    createdAt: nowIso,
    updatedAt: nowIso,
    version: 1,
    declaredSize: source.size ?? source.declaredSize,
    contentVersion: source.blobId ? 1 : null,
  }
}
