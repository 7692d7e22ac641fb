import { errorTypes, type ErrorType } from '../api/error-types.js'

/**
 * The one error hierarchy of the service side: every error botshelf raises on purpose (stores, blobs, jobs,
 * routes) is a `BotshelfError` with the wire `type` it answers with (which fixes the HTTP status) and a stable
 * `code` that callers and logs can match on. The service's error handler turns any of them into the wire body
 * `{ id, code, type, message, metadata }`, with `metadata.code` carrying the stable code.
 *
 * @example
 * ```ts
 * try { await backend.tables.loadTable(botId, 'nopeTable') }
 * catch (error) { if (error instanceof BotshelfError && error.code === 'TABLE_NOT_FOUND') console.log(error.status) } // 404
 * ```
 */
export class BotshelfError extends Error {
  override readonly name: string = 'BotshelfError'
  /** HTTP status, equal to the wire `code` of `type`. */
  readonly status: number

  constructor(
    /** The wire error type (`ResourceNotFound`, `InvalidPayload`, ...). */
    readonly type: ErrorType,
    /** A stable code of this error, for programs, in SCREAMING_SNAKE_CASE (`TABLE_NOT_FOUND`, `UNKNOWN_TOKEN`, `BLOB_TOO_LARGE`, ...). */
    readonly code: string,
    message: string,
    /** Extra facts for the caller, sent as the wire `metadata`. */
    readonly metadata?: Record<string, unknown>,
    options?: {
      /** What caused it, kept as the standard `error.cause`, e.g. `{ cause: zlibError }`. */
      cause?: unknown
    },
  ) {
    super(message, options)
    this.status = errorTypes[type].code
  }
}
