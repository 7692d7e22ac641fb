import { pooledRandomBytes } from '../../platform/random-pool.js'
import { newErrorId, type ErrorBody } from 'botshelf/api'
import type { ErrorType } from 'botshelf/api'

/**
 * An answer the service gives outside its routes (a request Node's HTTP parser refused, a body or connection
 * that timed out): an HTTP status and the closest wire error type. Where HTTP has a precise status the wire
 * format has no type for (408, 431), the status and the body's `code` are the HTTP one and `type` is the
 * closest type (docs/decisions/0702-rate-limits-and-timeouts.md).
 *
 * @example
 * ```ts
 * const refusal: Refusal = { status: 431, type: 'LimitExceeded', message: 'The request line and headers are larger than 16384 bytes' }
 * ```
 */
export interface Refusal {
  /** HTTP status, also the body's `code`. @example `408` */
  readonly status: number
  /** Wire error type, from which clients pick their error class. @example `'OperationTimeout'` */
  readonly type: ErrorType
  /** What went wrong and what to do. @example `'The request headers did not arrive within 20 s'` */
  readonly message: string
  /** Extra facts (`metadata` of the body). @example `{ limitMs: 20000 }` */
  readonly metadata?: Record<string, unknown>
}

/** Reason phrases of the statuses a refusal uses. */
const reasonPhrases: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
}

/**
 * A request id in the format of the request log (`req_` + 16 random hex digits): every request's, made by
 * src/server/http/request-context.ts, and those of answers given before the app sees the request.
 *
 * @example
 * ```ts
 * newRequestId() // 'req_2b0c4f6a9d1e3f57'
 * ```
 */
export function newRequestId(): string {
  // Random bytes drawn 4 KB at a time: no call into OpenSSL per request.
  return `req_${pooledRandomBytes(8).toString('hex')}`
}

/**
 * The JSON text of a refusal's wire error body `{ id, code, type, message, metadata? }`.
 *
 * @example
 * ```ts
 * JSON.parse(refusalBody({ status: 408, type: 'OperationTimeout', message: 'Too slow' }, new Date())).code // 408
 * ```
 */
export function refusalBody(refusal: Refusal, now: Date): string {
  const body: Omit<ErrorBody, 'code'> & { code: number } = { id: newErrorId(now), code: refusal.status, type: refusal.type, message: refusal.message }
  if (refusal.metadata !== undefined) body.metadata = refusal.metadata
  return JSON.stringify(body)
}

/**
 * A refusal as a `Response` that closes the connection (`connection: close`), with `x-request-id` when given.
 *
 * @example
 * ```ts
 * return refusalResponse({ status: 400, type: 'InvalidPayload', message: 'Missing Host header' }, new Date(), newRequestId())
 * ```
 */
export function refusalResponse(refusal: Refusal, now: Date, requestId?: string): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=UTF-8', connection: 'close' }
  if (requestId !== undefined) headers['x-request-id'] = requestId
  return new Response(refusalBody(refusal, now), { status: refusal.status, headers })
}

/**
 * A refusal as the bytes of a whole HTTP/1.1 response, to write on a socket Node's HTTP parser gave up on:
 * status line, `content-type`, `content-length`, `x-request-id`, `connection: close`, the JSON body.
 *
 * @example
 * ```ts
 * socket.end(refusalMessage({ status: 431, type: 'LimitExceeded', message: 'Headers too large' }, new Date(), newRequestId()))
 * ```
 */
export function refusalMessage(refusal: Refusal, now: Date, requestId: string, options: { headOnly?: boolean } = {}): string {
  const body = refusalBody(refusal, now)
  return [
    `HTTP/1.1 ${refusal.status} ${reasonPhrases[refusal.status] ?? 'Error'}`,
    'content-type: application/json; charset=UTF-8',
    `content-length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`,
    `date: ${new Date().toUTCString()}`,
    'connection: close',
    '',
    // A response to HEAD has no body: the client would read those bytes as garbage after the answer.
    options.headOnly === true ? '' : body,
  ].join('\r\n')
}
