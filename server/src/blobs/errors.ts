import type { ErrorType } from 'botshelf/api'
import { BotshelfError } from 'botshelf/api'

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
export type BlobErrorCode =
  | 'BLOB_TOO_LARGE'
  | 'BLOB_SIZE_MISMATCH'
  | 'BLOB_NOT_FOUND'
  | 'BLOB_BAD_ID'
  | 'BLOB_RANGE'
  | 'BLOB_STORAGE_REFUSED'
  | 'BLOB_STORAGE_UNAVAILABLE'
  | 'BLOB_CONFIG'

/** The wire type each blob error answers with when nothing more specific catches it. */
const blobErrorTypes: Record<BlobErrorCode, ErrorType> = {
  BLOB_TOO_LARGE: 'PayloadTooLarge',
  BLOB_SIZE_MISMATCH: 'InvalidPayload',
  BLOB_NOT_FOUND: 'ResourceNotFound',
  BLOB_BAD_ID: 'InvalidIdentifier',
  BLOB_RANGE: 'InvalidPayload',
  // Both are the operator's problem, not the caller's: the wire says Internal, the log has the details.
  BLOB_STORAGE_REFUSED: 'Internal',
  BLOB_STORAGE_UNAVAILABLE: 'Internal',
  BLOB_CONFIG: 'Internal',
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

/**
 * The object storage behind the blob store failed a call. `code` tells the operator's two cases apart:
 * `BLOB_STORAGE_REFUSED` (a configuration problem that retrying will not fix: access denied, unknown access key,
 * missing bucket, wrong region) and `BLOB_STORAGE_UNAVAILABLE` (the storage is down, slow or throttling, after the
 * client's own retries). The storage's own error is kept in `cause`; no credential is ever part of the message.
 *
 * @example
 * ```ts
 * if (error instanceof BlobStorageError && error.code === 'BLOB_STORAGE_REFUSED') console.error(error.storageCode) // 'AccessDenied'
 * ```
 */
export class BlobStorageError extends BlobError {
  override readonly name = 'BlobStorageError'
  constructor(
    code: 'BLOB_STORAGE_REFUSED' | 'BLOB_STORAGE_UNAVAILABLE',
    /** The storage operation that failed (`PutObject`, `UploadPart`, `GetObject`, ...). */
    readonly operation: string,
    /** The storage's error code (`AccessDenied`, `NoSuchBucket`, `ECONNREFUSED`, ...). */
    readonly storageCode: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message)
    if (options && 'cause' in options) Object.defineProperty(this, 'cause', { value: options.cause, enumerable: false })
  }
}

/**
 * The blob storage configuration is wrong: `setting` names the flag or variable (`--blobs`,
 * `BOTSHELF_S3_ENDPOINT`, ...), the message says what was expected and what was received. Raised before anything
 * opens; the CLI prints it as a usage error.
 *
 * @example
 * ```ts
 * try { blobStoreOptionsFrom({ env: process.env }) } catch (error) { if (error instanceof BlobConfigError) console.error(error.message) }
 * ```
 */
export class BlobConfigError extends BlobError {
  override readonly name = 'BlobConfigError'
  constructor(
    /** The flag or environment variable at fault. */
    readonly setting: string,
    message: string,
  ) {
    super('BLOB_CONFIG', `${setting}: ${message}`)
  }
}
