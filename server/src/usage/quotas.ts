import type { Backend, FileRecord, PassageInput } from '../store/index.js'
import { measureWorkspaceUsage } from './workspace-usage.js'

/** Optional storage limits of the workspace (every bot of the data folder), in bytes. Absent: no limit. */
export interface StorageQuotas {
  /**
   * Most File Storage (content bytes of all files).
   *
   * @example
   * ```ts
   * await createApp({ dataDir, quotas: { fileStorageBytes: 10 * 1024 ** 3 } })
   * ```
   */
  fileStorageBytes?: number
  /**
   * Most Vector DB Storage (passage text bytes plus vector bytes of all indexed files).
   *
   * @example
   * ```ts
   * await createApp({ dataDir, quotas: { vectorStorageBytes: 1024 ** 3 } })
   * ```
   */
  vectorStorageBytes?: number
}

/**
 * Why storing `incomingBytes` as the new content of `file` would pass the File Storage quota, or `undefined` when it
 * fits. The file's current content is replaced, so its size is given back first.
 *
 * @example
 * ```ts
 * const reason = await fileStorageQuotaExceeded(backend, quotas, file, file.declaredSize)
 * if (reason) throw new ServiceError('PayloadTooLarge', reason)
 * ```
 */
export async function fileStorageQuotaExceeded(backend: Backend, quotas: StorageQuotas | undefined, file: FileRecord, incomingBytes: number): Promise<string | undefined> {
  const limit = quotas?.fileStorageBytes
  if (limit === undefined) return undefined
  const used = (await measureWorkspaceUsage(backend)).total.fileStorage.bytes - (file.size ?? 0)
  if (used + incomingBytes <= limit) return undefined
  return `the workspace's File Storage quota of ${limit} bytes would be exceeded: ${used} bytes are used and this content has ${incomingBytes}`
}

/**
 * Why indexing `passages` for `fileId` would pass the Vector DB Storage quota, or `undefined` when they fit. The
 * file's current passages are replaced, so their text bytes and vector bytes are given back first.
 *
 * @example
 * ```ts
 * const reason = await vectorStorageQuotaExceeded(backend, quotas, file.id, passages)
 * if (reason) return fail(reason)
 * ```
 */
export async function vectorStorageQuotaExceeded(
  backend: Backend,
  quotas: StorageQuotas | undefined,
  fileId: string,
  passages: ReadonlyArray<PassageInput>,
): Promise<string | undefined> {
  const limit = quotas?.vectorStorageBytes
  if (limit === undefined) return undefined
  const current = await backend.search.passagesAround(fileId, 0, Number.MAX_SAFE_INTEGER)
  const vectorBytes = passages[0]?.vector ? passages[0].vector.byteLength : 0
  const replaced = current.reduce((total, passage) => total + utf8Bytes(passage.content) + vectorBytes, 0)
  const incoming = passages.reduce((total, passage) => total + utf8Bytes(passage.content) + (passage.vector?.byteLength ?? 0), 0)
  const used = (await measureWorkspaceUsage(backend)).total.vectorStorage.bytes - replaced
  if (used + incoming <= limit) return undefined
  return `the workspace's Vector DB Storage quota of ${limit} bytes would be exceeded: ${used} bytes are used and this document's ${passages.length} passages need ${incoming}`
}

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}
