import { errorTypes, type ErrorType } from '../../api/error-types.js'
import { newErrorId } from '../../api/error-body.js'

/**
 * The JSON form of an API error, the same object the server sends.
 *
 * @example
 * ```ts
 * const json: ApiErrorJson = new ResourceNotFoundError('File "a.txt" not found').toJSON()
 * ```
 */
export interface ApiErrorJson {
  id: string | undefined
  code: number
  type: ErrorType
  message: string
  metadata: Record<string, unknown> | undefined
}

/**
 * Base class of every error the service answers with (one subclass per wire `type`). Carries the
 * same fields as `@botpress/client`'s errors: `code` (the HTTP status of the type), `type`,
 * `description`, `message`, `id`, `metadata`, and `error` (the cause, when there is one).
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'missing.txt' })
 * } catch (e) {
 *   if (e instanceof ApiError) console.log(e.type, e.code, e.id, e.message)
 * }
 * ```
 */
export abstract class ApiError<TType extends ErrorType = ErrorType> extends Error {
  /** Always `true`; lets `isApiError` recognise errors across copies of the library. */
  public readonly isApiError = true as const
  /** The HTTP status of this error type (404 for `ResourceNotFound`, ...). */
  public readonly code: (typeof errorTypes)[TType]['code']
  /** The fixed description of the type, the same string as `@botpress/client`. */
  public readonly description: (typeof errorTypes)[TType]['description']
  /** The id the server gave the error (`err_...`), or a fresh one for errors made on the client. */
  public readonly id: string
  /** Structured details sent by the server, if any. */
  public readonly metadata: Record<string, unknown> | undefined
  /** The underlying error, when this one wraps another. */
  public readonly error: Error | undefined

  protected constructor(
    public readonly type: TType,
    message: string,
    error?: Error,
    id?: string,
    metadata?: Record<string, unknown>,
  ) {
    super(message)
    this.name = `${type}Error`
    this.code = errorTypes[type].code
    this.description = errorTypes[type].description
    this.id = id === undefined || id === '' ? newErrorId() : id
    this.metadata = metadata
    this.error = error
  }

  /**
   * A one-line summary: `[Type] message (Error ID: id)`.
   *
   * @example
   * ```ts
   * new ResourceNotFoundError('File "a.txt" not found').format()
   * // '[ResourceNotFound] File "a.txt" not found (Error ID: err_...)'
   * ```
   */
  public format(): string {
    return `[${this.type}] ${this.message} (Error ID: ${this.id})`
  }

  /**
   * The wire form of the error: `{ id, code, type, message, metadata }`.
   *
   * @example
   * ```ts
   * JSON.stringify(error) // '{"id":"err_...","code":404,"type":"ResourceNotFound","message":"..."}'
   * ```
   */
  public toJSON(): ApiErrorJson {
    return { id: this.id, code: this.code, type: this.type, message: this.message, metadata: this.metadata }
  }
}

/**
 * Tells whether a thrown value is an API error: an `ApiError` instance, or any object marked
 * `isApiError: true` (so errors from another copy of this library, or from `@botpress/client`, count too).
 *
 * @example
 * ```ts
 * try {
 *   await client.getTable({ table: 'missingTable' })
 * } catch (e) {
 *   if (isApiError(e) && e.type === 'ResourceNotFound') return null
 *   throw e
 * }
 * ```
 */
export function isApiError(thrown: unknown): thrown is ApiError {
  if (thrown instanceof ApiError) return true
  return typeof thrown === 'object' && thrown !== null && (thrown as { isApiError?: unknown }).isApiError === true
}
