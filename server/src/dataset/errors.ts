import { BotshelfError } from 'botshelf/api'

/** Stable codes of {@link DatasetArchiveError}. */
export type DatasetArchiveErrorCode = 'ARCHIVE_INVALID' | 'ARCHIVE_CORRUPT' | 'TARGET_NOT_EMPTY' | 'DESTINATION_EXISTS' | 'SOURCE_CORRUPT'

/**
 * What `botshelf export` / `botshelf import` refuse: an archive that is not one or fails a checksum (the message
 * names the part or blob), a target that is not empty, a destination that exists, a source blob that does not
 * match its file's checksum.
 *
 * @example
 * ```ts
 * throw new DatasetArchiveError('ARCHIVE_CORRUPT', 'blobs/blob-1: sha256 expected 9f86..., computed 2c26...')
 * ```
 */
export class DatasetArchiveError extends BotshelfError {
  override readonly name = 'DatasetArchiveError'
  declare readonly code: DatasetArchiveErrorCode

  constructor(code: DatasetArchiveErrorCode, message: string) {
    super(code === 'TARGET_NOT_EMPTY' || code === 'DESTINATION_EXISTS' ? 'AlreadyExists' : 'InvalidPayload', code, message)
  }
}
