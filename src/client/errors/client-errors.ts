/**
 * The stable codes of errors raised by the client itself (not answered by the service).
 *
 * @example
 * ```ts
 * if (e instanceof ClientError && e.code === 'ERR_TIMEOUT') retryLater()
 * ```
 */
export type ClientErrorCode =
  | 'ERR_NETWORK'
  | 'ERR_TIMEOUT'
  | 'ERR_ABORTED'
  | 'ERR_INVALID_RESPONSE'
  | 'ERR_PAGINATION'
  | 'ERR_UPLOAD'
  | 'ERR_INVALID_INPUT'

/**
 * Base class of the errors the client raises itself: the request never got an answer (network,
 * timeout, abort), the answer was not usable, or the input was refused before sending. These are
 * not API errors: `isApiError(e)` is false for them.
 *
 * @example
 * ```ts
 * try { await client.listFiles({}) } catch (e) { if (e instanceof ClientError) console.log(e.code) }
 * ```
 */
export abstract class ClientError extends Error {
  /** A stable machine-readable code. */
  public abstract readonly code: ClientErrorCode

  protected constructor(message: string, options?: {
    /** What caused this error (kept as the standard `error.cause`): `{ cause: thrown }`. */
    cause?: unknown
  }) {
    super(message, options)
  }
}

/**
 * The request could not reach the service or its answer was cut (DNS, refused connection, reset).
 *
 * @example
 * ```ts
 * catch (e) { if (e instanceof NetworkError) console.log('service unreachable:', e.message, e.cause) }
 * ```
 */
export class NetworkError extends ClientError {
  public readonly code = 'ERR_NETWORK' as const
  public constructor(message: string, options?: {
    /** What caused this error (kept as the standard `error.cause`): `{ cause: thrown }`. */
    cause?: unknown
  }) {
    super(message, options)
    this.name = 'NetworkError'
  }
}

/**
 * The call took longer than the client's `timeout` (or the call's own `timeout` option).
 *
 * @example
 * ```ts
 * catch (e) { if (e instanceof TimeoutError) console.log(`gave up after ${e.timeoutMs} ms`) }
 * ```
 */
export class TimeoutError extends ClientError {
  public readonly code = 'ERR_TIMEOUT' as const
  public constructor(
    /** The time limit that was exceeded, in milliseconds. */
    public readonly timeoutMs: number,
    message = `The request timed out after ${timeoutMs} ms`,
  ) {
    super(message)
    this.name = 'TimeoutError'
  }
}

/**
 * The call was cancelled through its `signal`. `cause` holds the signal's reason.
 *
 * @example
 * ```ts
 * const controller = new AbortController()
 * const pending = client.getFile({ id: 'a.txt' }, { signal: controller.signal })
 * controller.abort()
 * await pending.catch((e) => e instanceof AbortError) // true
 * ```
 */
export class AbortError extends ClientError {
  public readonly code = 'ERR_ABORTED' as const
  public constructor(message = 'The request was aborted', options?: {
    /** What caused this error (kept as the standard `error.cause`): `{ cause: thrown }`. */
    cause?: unknown
  }) {
    super(message, options)
    this.name = 'AbortError'
  }
}

/**
 * The service answered 2xx with a body that is not the expected JSON object.
 *
 * @example
 * ```ts
 * catch (e) { if (e instanceof InvalidResponseError) console.log(e.status, e.body.slice(0, 100)) }
 * ```
 */
export class InvalidResponseError extends ClientError {
  public readonly code = 'ERR_INVALID_RESPONSE' as const
  public constructor(
    message: string,
    /** HTTP status of the response. */
    public readonly status: number,
    /** The raw body text (possibly cut). */
    public readonly body: string,
  ) {
    super(message)
    this.name = 'InvalidResponseError'
  }
}

/**
 * A paginated list misbehaved: a page without `meta`, or a `nextToken` already seen (which would
 * loop forever).
 *
 * @example
 * ```ts
 * catch (e) { if (e instanceof PaginationError) console.log(e.message) }
 * ```
 */
export class PaginationError extends ClientError {
  public readonly code = 'ERR_PAGINATION' as const
  public constructor(message: string) {
    super(message)
    this.name = 'PaginationError'
  }
}

/**
 * `uploadFile` failed: bad input (both or neither of `content` and `url`), the `url` could not be
 * downloaded, or the content PUT failed. `file` is the upserted file when the failure came after
 * `upsertFile`. Its `name` is `FileUploadError`, like `@botpress/client`'s `UploadFileError`.
 *
 * @example
 * ```ts
 * catch (e) { if (e instanceof UploadFileError) console.log(e.message, e.file?.id, e.innerError) }
 * ```
 */
export class UploadFileError extends ClientError {
  public readonly code = 'ERR_UPLOAD' as const
  public constructor(
    message: string,
    /** The error that caused the failure (a network error, an ApiError from the upload URL, ...). */
    public readonly innerError?: Error,
    /** The file returned by `upsertFile`, when the failure happened after it. */
    public readonly file?: { id: string; key: string } & Record<string, unknown>,
  ) {
    super(message, { cause: innerError })
    this.name = 'FileUploadError'
  }
}

/**
 * The client refused an input before sending anything (a missing path parameter, a bad option).
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: undefined as never })
 * } catch (e) {
 *   if (e instanceof InvalidInputError) console.log(e.message) // 'id: expected a string, received undefined'
 * }
 * ```
 */
export class InvalidInputError extends ClientError {
  public readonly code = 'ERR_INVALID_INPUT' as const
  public constructor(message: string) {
    super(message)
    this.name = 'InvalidInputError'
  }
}
