import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { BotshelfError } from 'botshelf/api'
import type { AppEnv } from './env.js'
import { errorAnswer, errorBodyText } from './pipeline/error-answer.js'

export { errorBodyText, reportServerError, toServiceError } from './pipeline/error-answer.js'

const ERROR_CONTENT_TYPE = 'application/json; charset=UTF-8'

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
  return answerResponse(error.status, errorBodyText(error, now), headers)
}

function answerResponse(status: number, text: string, headers: Record<string, string>): Response {
  return new Response(text, { status, headers: { 'content-type': ERROR_CONTENT_TYPE, 'content-length': String(Buffer.byteLength(text)), ...headers } })
}

/**
 * Hono `onError` handler: the pipeline's error answer (`errorAnswer`) as a `Response`. Unknown errors are logged
 * with their stack (and the request id) and answered as a generic `Internal` 500. The answer carries the request id
 * and any `headers` given from the start (see `errorResponse`).
 *
 * @example
 * ```ts
 * app.onError(handleError)
 * handleError(new ServiceError('MethodNotFound', 'Method POST is not allowed on /health'), c, { allow: 'GET' })
 * ```
 */
export function handleError(error: unknown, c: Context<AppEnv>, headers: Record<string, string> = {}): Response {
  const requestId = c.get('requestId')
  const { status, text } = errorAnswer(error, c.get('services'), requestId)
  // The request id goes in with the other headers, so the request context finds it and leaves the answer as built.
  return answerResponse(status, text, requestId !== undefined ? { ...headers, 'x-request-id': requestId } : headers)
}

/** Status type Hono accepts for a JSON response. */
export type JsonStatus = ContentfulStatusCode
