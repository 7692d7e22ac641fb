import { HTTPException } from 'hono/http-exception'
import { BotshelfError, errorTypes, newErrorId, type ErrorBody, type ErrorType } from 'botshelf/api'
import type { AppServices } from '../env.js'
import { ServiceError } from '../service-error.js'

/** An error's answer: the status and the wire error body's text. */
export interface ErrorAnswer {
  readonly status: number
  readonly text: string
}

/**
 * Step 6 of the request pipeline, the answer of a request that failed: the wire error body of what was thrown, and
 * for a 5xx the report (`reportServerError`). Both answer paths call it (the Hono app's `onError`, the direct lane),
 * so an error reads and is reported the same whichever path answered it.
 *
 * @example
 * ```ts
 * const { status, text } = errorAnswer(new Error('disk on fire'), services, requestId) // 500, logged with its stack
 * ```
 */
export function errorAnswer(error: unknown, services: Pick<AppServices, 'logger' | 'metrics' | 'now'> | undefined, requestId: string | undefined): ErrorAnswer {
  const serviceError = toServiceError(error)
  if (serviceError.status >= 500) reportServerError(services, error, requestId)
  return { status: serviceError.status, text: errorBodyText(serviceError, services?.now() ?? new Date()) }
}

/**
 * The wire error body of an error as JSON text: `{ id, code, type, message, metadata? }`.
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
