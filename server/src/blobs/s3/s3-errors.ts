import { BlobError, BlobStorageError } from '../errors.js'

/** Storage answers that retrying will not fix: the configuration (bucket, region, credentials, policy) is wrong. */
const REFUSED = new Set([
  'AccessDenied',
  'AllAccessDisabled',
  'AccountProblem',
  'AuthorizationHeaderMalformed',
  'ExpiredToken',
  'InvalidAccessKeyId',
  'InvalidBucketName',
  'InvalidToken',
  'NoSuchBucket',
  'PermanentRedirect',
  'SignatureDoesNotMatch',
  'TokenRefreshRequired',
  'CredentialsProviderError',
])

interface SdkErrorShape {
  name?: string
  code?: string
  Code?: string
  message?: string
  $metadata?: { httpStatusCode?: number }
}

/**
 * The storage's code of an SDK error: the S3 error code (`NoSuchKey`), a Node network code (`ECONNREFUSED`),
 * or the error's name (`TimeoutError`).
 *
 * @example
 * ```ts
 * storageErrorCode(error) === 'NoSuchKey'
 * ```
 */
export function storageErrorCode(error: unknown): string {
  const shape = (error ?? {}) as SdkErrorShape
  return shape.Code ?? (typeof shape.code === 'string' ? shape.code : undefined) ?? shape.name ?? 'Unknown'
}

/**
 * The HTTP status of an SDK error, when the storage answered at all.
 *
 * @example
 * ```ts
 * storageHttpStatus(error) === 404
 * ```
 */
export function storageHttpStatus(error: unknown): number | undefined {
  return ((error ?? {}) as SdkErrorShape).$metadata?.httpStatusCode
}

/**
 * Turns an error of one storage call into the project's errors: a `BlobError` passes unchanged, anything else
 * becomes a {@link BlobStorageError} naming the operation and the storage's code (refused: configuration;
 * unavailable: everything else, after the client's retries), the original kept as `cause`. No raw SDK error leaves
 * the S3 store.
 *
 * @example
 * ```ts
 * try { await client.send(command) } catch (error) { throw toBlobError(error, 'PutObject') }
 * ```
 */
export function toBlobError(error: unknown, operation: string): BlobError {
  if (error instanceof BlobError) return error
  const code = storageErrorCode(error)
  const status = storageHttpStatus(error)
  const refused = REFUSED.has(code) || status === 401 || status === 403
  const why = refused ? 'check the bucket, region, credentials and bucket policy' : 'the storage is unreachable or failing; the client already retried'
  const shown = status !== undefined ? `${code} (HTTP ${status})` : code
  return new BlobStorageError(refused ? 'BLOB_STORAGE_REFUSED' : 'BLOB_STORAGE_UNAVAILABLE', operation, code, `object storage ${operation} failed: ${shown}; ${why}`, {
    cause: error,
  })
}
