import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { newErrorId, type ErrorBody } from 'botshelf/api'
import { errorTypes, type ErrorType } from 'botshelf/api'
import type { AppEnv, AppServices } from './env.js'
import { BotshelfError } from 'botshelf/api'
import { ServiceError } from './service-error.js'

/**
 * Builds the wire error response `{ id, code, type, message, metadata? }` with HTTP status == code, its
 * `Content-Length` and any `headers` given (an `allow`, the request id). Every header goes in at construction:
 * @hono/node-server's lightweight `Response` then writes the text to the socket in one call, where a header added
 * afterwards would make Hono rebuild the answer as a web `Response` with a body stream (decision 1211).
 *
 * @example
 * ```ts
 * return errorResponse(new ServiceError('ResourceNotFound', 'File "a.txt" not found'), new Date())
 * return errorResponse(new ServiceError('MethodNotFound', 'Method POST is not allowed'), new Date(), { allow: 'GET' })
 * ```
 */
export function errorResponse(error: BotshelfError, now: Date = new Date(), headers: Record<string, string> = {}): Response {
  const text = errorBodyText(error, now)
  return new Response(text, {
    status: error.status,
    headers: { 'content-type': 'application/json; charset=UTF-8', 'content-length': String(Buffer.byteLength(text)), ...headers },
  })
}

/**
 * The wire error body of an error as JSON text: `{ id, code, type, message, metadata? }`. Shared by every answer path
 * (the Hono app's errors, the direct lane's), so an error reads the same whichever path answered it.
 *
 * @example
 * ```ts
 * errorBodyText(new ServiceError('ResourceNotFound', 'File "a.txt" not found'), new Date())
 * // '{"id":"err_...","code":404,"type":"ResourceNotFound","message":"File \\"a.txt\\" not found"}'
 * ```
 */
export function errorBodyText(error: BotshelfError, now: Date): string {
  const body: ErrorBody = { id: newErrorId(now), code: error.status, type: error.type, message: error.message }
  if (error.metadata !== undefined) body.metadata = error.metadata
  return JSON.stringify(body)
}

/**
 * Logs and counts the error behind a 5xx answer (`unhandled error` at `error`, with its stack; the metrics' failure
 * counters); errors answered 4xx are the caller's and go unreported.
 *
 * @example
 * ```ts
 * const serviceError = toServiceError(error)
 * if (serviceError.status >= 500) reportServerError(services, error, requestId)
 * ```
 */
export function reportServerError(services: Pick<AppServices, 'logger' | 'metrics'> | undefined, error: unknown, requestId: string | undefined): void {
  services?.metrics?.observeFailure(error)
  const detail = error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) }
  services?.logger.log('error', 'unhandled error', { requestId, ...detail })
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
 * stack (and the request id) and answered as a generic `Internal` 500. The answer carries the request id and any
 * `headers` given from the start (see `errorResponse`).
 *
 * @example
 * ```ts
 * app.onError(handleError)
 * handleError(new ServiceError('MethodNotFound', 'Method POST is not allowed on /health'), c, { allow: 'GET' })
 * ```
 */
export function handleError(error: unknown, c: Context<AppEnv>, headers: Record<string, string> = {}): Response {
  const serviceError = toServiceError(error)
  const services = c.get('services')
  if (serviceError.status >= 500) reportServerError(services, error, c.get('requestId'))
  // The request id goes in with the other headers, so the request context finds it and leaves the answer as built.
  const requestId = c.get('requestId')
  return errorResponse(serviceError, services?.now() ?? new Date(), requestId !== undefined ? { ...headers, 'x-request-id': requestId } : headers)
}

/** Status type Hono accepts for a JSON response. */
export type JsonStatus = ContentfulStatusCode
