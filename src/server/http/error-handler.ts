import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { newErrorId, type ErrorBody } from '../../api/error-body.js'
import { errorTypes, type ErrorType } from '../../api/error-types.js'
import type { AppEnv } from '../env.js'
import { BotshelfError } from '../../errors/index.js'
import { ServiceError } from '../service-error.js'

/**
 * Builds the wire error response `{ id, code, type, message, metadata? }` with HTTP status == code.
 *
 * @example
 * ```ts
 * return errorResponse(new ServiceError('ResourceNotFound', 'File "a.txt" not found'), new Date())
 * ```
 */
export function errorResponse(error: BotshelfError, now: Date = new Date()): Response {
  const body: ErrorBody = { id: newErrorId(now), code: error.status, type: error.type, message: error.message }
  if (error.metadata !== undefined) body.metadata = error.metadata
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: { 'content-type': 'application/json; charset=UTF-8' },
  })
}

function typeForStatus(status: number): ErrorType {
  const match = (Object.keys(errorTypes) as ErrorType[]).find((type) => errorTypes[type].code === status)
  return match ?? (status >= 500 ? 'Internal' : 'InvalidPayload')
}

/**
 * Turns anything thrown into a `ServiceError`: a `ServiceError` as is, a Hono `HTTPException` by its
 * status, anything else as a generic `Internal` (the caller logs the original; its details never reach
 * the wire).
 *
 * @example
 * ```ts
 * toServiceError(new Error('disk on fire')) // ServiceError('Internal', 'An internal error occurred')
 * ```
 */
export function toServiceError(error: unknown): BotshelfError {
  if (error instanceof ServiceError) return error
  // Any other error of the hierarchy answers with its type, and its stable code joins the metadata.
  if (error instanceof BotshelfError) return new ServiceError(error.type, error.message, { code: error.code, ...error.metadata })
  if (error instanceof HTTPException) {
    if (error.status === 413) return new ServiceError('PayloadTooLarge', 'The request payload is too large')
    return new ServiceError(typeForStatus(error.status), error.message || errorTypes[typeForStatus(error.status)].description)
  }
  return new ServiceError('Internal', 'An internal error occurred')
}

/**
 * Hono `onError` handler: every error becomes the wire error body. Unknown errors are logged with their
 * stack (and the request id) and answered as a generic `Internal` 500.
 *
 * @example
 * ```ts
 * app.onError(handleError)
 * ```
 */
export function handleError(error: unknown, c: Context<AppEnv>): Response {
  const serviceError = toServiceError(error)
  const services = c.get('services')
  if (serviceError.status >= 500) {
    services?.metrics?.observeFailure(error)
    const detail = error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) }
    services?.logger.log('error', 'unhandled error', { requestId: c.get('requestId'), ...detail })
  }
  return errorResponse(serviceError, services?.now() ?? new Date())
}

/** Status type Hono accepts for a JSON response. */
export type JsonStatus = ContentfulStatusCode
