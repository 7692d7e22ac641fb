import { isErrorType } from '../../api/error-types.js'
import type { ApiError } from './api-error.js'
import { isApiError } from './api-error.js'
import { apiErrorClasses, UnknownError } from './api-error-classes.js'

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Turns a value into an API error with the rules of `@botpress/client` (docs/wire-format.md §3):
 * an API error is returned as is; an `Error` or a string becomes `UnknownError`; an object with
 * `code`, `type`, `id` and `message` (`type` and `message` strings) becomes the class of its `type`
 * (`UnknownError` "An unclassified API error occurred: ..." for an unknown type); any other value
 * becomes `UnknownError` "An invalid error occurred: <json>".
 *
 * @example
 * ```ts
 * errorFrom({ id: 'err_1', code: 404, type: 'ResourceNotFound', message: 'File not found' }) // ResourceNotFoundError
 * errorFrom({ code: 404, type: 'ResourceNotFound', message: 'no id' }) // UnknownError
 * ```
 */
export function errorFrom(value: unknown): ApiError {
  if (isApiError(value)) return value
  if (value instanceof Error) return new UnknownError(value.message, value)
  if (typeof value === 'string') return new UnknownError(value)
  if (
    isPlainObject(value) &&
    'code' in value &&
    'type' in value &&
    'id' in value &&
    'message' in value &&
    typeof value.type === 'string' &&
    typeof value.message === 'string'
  ) {
    if (!isErrorType(value.type)) {
      return new UnknownError(
        `An unclassified API error occurred: ${value.message} (Type: ${value.type}, Code: ${String(value.code)})`,
      )
    }
    const ErrorClass = apiErrorClasses[value.type]
    // An empty id is kept visible as 'UNKNOWN' (like the official client) rather than replaced by a fresh one.
    const id = typeof value.id === 'string' && value.id !== '' ? value.id : 'UNKNOWN'
    const metadata = isPlainObject(value.metadata) ? value.metadata : undefined
    return new ErrorClass(value.message, undefined, id, metadata)
  }
  return new UnknownError(`An invalid error occurred: ${safeStringify(value)}`)
}

/**
 * Turns a non-2xx response body into an API error: a JSON body goes through `errorFrom`, a non-JSON
 * body becomes `UnknownError(body)`, an empty body `UnknownError("Request failed with status code N")`.
 *
 * @example
 * ```ts
 * errorFromResponseBody(502, '') // UnknownError('Request failed with status code 502')
 * errorFromResponseBody(502, 'Bad Gateway') // UnknownError('Bad Gateway')
 * ```
 */
export function errorFromResponseBody(status: number, bodyText: string): ApiError {
  if (bodyText.trim() === '') return new UnknownError(`Request failed with status code ${status}`)
  let parsed: unknown
  try {
    parsed = JSON.parse(bodyText)
  } catch {
    return new UnknownError(bodyText)
  }
  // A JSON body that is not an object (a number, an array, null) carries no error fields.
  if (parsed === null || typeof parsed !== 'object') {
    return typeof parsed === 'string' && parsed !== '' ? new UnknownError(parsed) : errorFromInvalid(status, parsed)
  }
  // Never trust `isApiError: true` coming from the wire: it would return a plain object as an error.
  if (isPlainObject(parsed) && 'isApiError' in parsed) {
    const { isApiError: _ignored, ...rest } = parsed
    return errorFrom(rest)
  }
  return errorFrom(parsed)
}

function errorFromInvalid(status: number, parsed: unknown): ApiError {
  // A falsy JSON body (null, false, 0, "") is treated like an empty one, as the official client does.
  if (!parsed) return new UnknownError(`Request failed with status code ${status}`)
  return new UnknownError(`An invalid error occurred: ${safeStringify(parsed)}`)
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}
