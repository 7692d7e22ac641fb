import type { ErrorType } from 'botshelf/api'
import { BotshelfError } from 'botshelf/api'

/** Stable codes of files store errors. */
export type FilesErrorCode = 'FILE_GONE' | 'VERSION_SUPERSEDED'

const filesErrorTypes: Record<FilesErrorCode, ErrorType> = {
  FILE_GONE: 'ResourceNotFound',
  VERSION_SUPERSEDED: 'ResourceGone',
}

/**
 * Raised by the files port when content cannot become a file's: the file was deleted meanwhile (`FILE_GONE`),
 * or a later upsert started a newer version (`VERSION_SUPERSEDED`). Part of the one hierarchy (`BotshelfError`):
 * the service answers it with its wire type (404, 410) and message.
 *
 * @example
 * ```ts
 * try { await files.completeUpload(id, 1, written) }
 * catch (error) { if (error instanceof FilesStoreError && error.code === 'VERSION_SUPERSEDED') await blobs.delete(written.blobId) }
 * ```
 */
export class FilesStoreError extends BotshelfError {
  override readonly name: string = 'FilesStoreError'
  declare readonly code: FilesErrorCode

  constructor(code: FilesErrorCode, message: string, metadata?: Record<string, unknown>) {
    super(filesErrorTypes[code], code, message, metadata)
  }
}
