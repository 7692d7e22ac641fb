import { newErrorId, type ErrorBody } from 'botshelf/api'
import { errorTypes } from 'botshelf/api'
import { describeBucketLimit, formatBucketLimit, type BucketLimit } from './bucket-limit.js'

/** Which bucket refused a request: the caller's token, or its IP address (routes without a token). */
export type RateLimitScope = 'token' | 'ip'

/**
 * The `Retry-After` of a refusal: whole seconds, at least 1, rounded up so a client that waits exactly that
 * long finds the tokens back.
 *
 * @example
 * ```ts
 * retryAfterSeconds(240) // 1
 * retryAfterSeconds(2_001) // 3
 * ```
 */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000))
}

/**
 * The 429 answer: the wire error body of type `RateLimited` naming the limit and the wait (also in
 * `metadata`: `scope`, `limit` in the `--rate-limit` grammar, `retryAfterSeconds`), `Retry-After` in seconds, its
 * `Content-Length`, and any `headers` given (the request id).
 *
 * @example
 * ```ts
 * const res = rateLimitedResponse('token', { perSecond: 100, burst: 500 }, 240, new Date())
 * res.status // 429
 * res.headers.get('retry-after') // '1'
 * rateLimitedResponse('ip', { perSecond: 200, burst: 1000 }, 5, new Date(), { 'x-request-id': 'req_1' })
 * ```
 */
export function rateLimitedResponse(scope: RateLimitScope, limit: BucketLimit, retryAfterMs: number, now: Date, headers: Record<string, string> = {}): Response {
  const seconds = retryAfterSeconds(retryAfterMs)
  const who = scope === 'token' ? 'this token may send' : 'one IP address may send, on routes without a token,'
  const body: ErrorBody = {
    id: newErrorId(now),
    code: errorTypes.RateLimited.code,
    type: 'RateLimited',
    message: `Rate limit exceeded: ${who} ${describeBucketLimit(limit)}; retry in ${seconds} s`,
    metadata: { scope, limit: formatBucketLimit(limit), retryAfterSeconds: seconds },
  }
  // Every header goes in at construction: @hono/node-server's Response rebuilds from its init when Hono adds
  // headers later, and would drop one set afterwards; with its length and the request id, it is written to the
  // socket as built, without a web stream (decision 1211).
  const text = JSON.stringify(body)
  return new Response(text, {
    status: errorTypes.RateLimited.code,
    headers: { 'content-type': 'application/json; charset=UTF-8', 'retry-after': String(seconds), 'content-length': String(Buffer.byteLength(text)), ...headers },
  })
}
