import type { ErrorType } from '../api/error-types.js'
import { BotshelfError } from '../errors/index.js'

/**
 * Base class of the errors the blob store raises (part of the one hierarchy, `BotshelfError`). `code` is stable
 * and safe to branch on.
 *
 * @example
 * ```ts
 * try { await blobs.write(body, { maxBytes: 10 }) } catch (e) { if (e instanceof BlobError) console.log(e.code) }
 * ```
 */
export class BlobError extends BotshelfError {
  override readonly name: string = 'BlobError'
  declare readonly code: BlobErrorCode
  constructor(code: BlobErrorCode, message: string) {
    super(blobErrorTypes[code], code, message)
  }
}

/** Stable codes of blob store errors. */
export type BlobErrorCode = 'BLOB_TOO_LARGE' | 'BLOB_SIZE_MISMATCH' | 'BLOB_NOT_FOUND' | 'BLOB_BAD_ID' | 'BLOB_RANGE'

/** The wire type each blob error answers with when nothing more specific catches it. */
const blobErrorTypes: Record<BlobErrorCode, ErrorType> = {
  BLOB_TOO_LARGE: 'PayloadTooLarge',
  BLOB_SIZE_MISMATCH: 'InvalidPayload',
  BLOB_NOT_FOUND: 'ResourceNotFound',
  BLOB_BAD_ID: 'InvalidIdentifier',
  BLOB_RANGE: 'InvalidPayload',
}

/**
 * The stream carried more bytes than allowed (the declared size or the 1 GB limit). The write was aborted and
 * its temporary file deleted.
 *
 * @example
 * ```ts
 * if (error instanceof BlobTooLargeError) console.log(error.limit)
 * ```
 */
export class BlobTooLargeError extends BlobError {
  override readonly name = 'BlobTooLargeError'
  constructor(readonly limit: number) {
    super('BLOB_TOO_LARGE', `content exceeds ${limit} bytes`)
  }
}

/**
 * The stream ended with fewer bytes than declared. Nothing was stored.
 *
 * @example
 * ```ts
 * if (error instanceof BlobSizeMismatchError) console.log(error.expected, error.received)
 * ```
 */
export class BlobSizeMismatchError extends BlobError {
  override readonly name = 'BlobSizeMismatchError'
  constructor(
    readonly expected: number,
    readonly received: number,
  ) {
    super('BLOB_SIZE_MISMATCH', `content has ${received} bytes but ${expected} were declared`)
  }
}

/**
 * No blob with that id.
 *
 * @example
 * ```ts
 * if (error instanceof BlobNotFoundError) return notFound()
 * ```
 */
export class BlobNotFoundError extends BlobError {
  override readonly name = 'BlobNotFoundError'
  constructor(readonly blobId: string) {
    super('BLOB_NOT_FOUND', `blob ${blobId} not found`)
  }
}
