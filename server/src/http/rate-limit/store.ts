import type { BucketLimit } from './bucket-limit.js'
import type { RateLimitDecision } from './token-bucket.js'

/**
 * The port behind which the rate limiter keeps its counters: one token bucket per key. The in-memory adapter
 * (`MemoryRateLimitStore`) serves one server; an adapter on a shared store (Redis, the database) lets several
 * servers of a dataset share the counters. `take` must be atomic per key: two concurrent takes never spend
 * the same token.
 *
 * @example
 * ```ts
 * const store: RateLimitStore = new MemoryRateLimitStore()
 * const decision = await store.take('token:tok_1', 1, Date.now(), { perSecond: 100, burst: 500 })
 * if (!decision.allowed) console.log(`retry in ${decision.retryAfterMs} ms`)
 * ```
 */
export interface RateLimitStore {
  /**
   * Takes `cost` tokens from the bucket of `key` at time `now` (ms, the app's clock) under `limit`, or refuses
   * when the bucket holds fewer. A key never seen starts with a full bucket.
   *
   * @example
   * ```ts
   * store.take('ip:203.0.113.7', 1, Date.now(), { perSecond: 200, burst: 1000 })
   * ```
   */
  take(key: string, cost: number, now: number, limit: BucketLimit): RateLimitDecision | Promise<RateLimitDecision>
}
