import type { BucketLimit } from '../rate-limit/bucket-limit.js'
import type { RateLimitScope } from '../rate-limit/rate-limited-response.js'
import type { RateLimitStore } from '../rate-limit/store.js'
import type { RateLimitDecision } from '../rate-limit/token-bucket.js'

/**
 * The store key of a bucket: one spelling for every caller, so the Hono app and the direct lane spend from the same
 * bucket (they once drifted apart).
 *
 * @example
 * ```ts
 * bucketKey('token', 'tok_1') // 'token:tok_1'
 * ```
 */
export function bucketKey(scope: RateLimitScope, id: string): string {
  return `${scope}:${id}`
}

/**
 * Step 3 of the request pipeline: takes one request from the bucket of a token (or, on the routes without a token,
 * of a client address). A refused take takes nothing, so the request may be sent again as is.
 *
 * @example
 * ```ts
 * const decision = await takeOneRequest(limits.store, 'token', 'tok_1', Date.now(), { perSecond: 100, burst: 500 })
 * if (!decision.allowed) console.log(`retry in ${decision.retryAfterMs} ms`)
 * ```
 */
export function takeOneRequest(
  store: RateLimitStore,
  scope: RateLimitScope,
  id: string,
  time: number,
  limit: BucketLimit,
): RateLimitDecision | Promise<RateLimitDecision> {
  return store.take(bucketKey(scope, id), 1, time, limit)
}
