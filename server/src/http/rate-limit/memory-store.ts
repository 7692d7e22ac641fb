import { BoundedMap } from 'botshelf/api'
import type { BucketLimit } from './bucket-limit.js'
import type { RateLimitStore } from './store.js'
import { fullAt, takeTokens, type BucketState, type RateLimitDecision } from './token-bucket.js'

/** Options of `MemoryRateLimitStore`. */
export interface MemoryRateLimitStoreOptions {
  /**
   * Most buckets kept at once. Past it, the least recently used bucket is dropped (its caller starts again with
   * a full bucket; it is most often full already). Default 100 000, a few megabytes.
   *
   * @example
   * ```ts
   * new MemoryRateLimitStore({ maxKeys: 10_000 })
   * ```
   */
  maxKeys?: number
  /**
   * How often, on the clock of `take`, the store drops the buckets that are full again (idle callers). Default
   * 60 000 ms. The sweep runs inside a `take`, so the store has no timer to stop.
   *
   * @example
   * ```ts
   * new MemoryRateLimitStore({ sweepIntervalMs: 10_000 })
   * ```
   */
  sweepIntervalMs?: number
}

interface Entry {
  state: BucketState
  limit: BucketLimit
}

/**
 * The in-memory `RateLimitStore`: one token bucket per key in a `Map`, for a single server. Memory is bounded:
 * a bucket that is full again equals a bucket never seen, so idle ones are dropped on a periodic sweep, and at
 * most `maxKeys` are kept (the least recently used is dropped past it).
 *
 * @example
 * ```ts
 * const store = new MemoryRateLimitStore({ maxKeys: 50_000 })
 * store.take('token:tok_1', 1, Date.now(), { perSecond: 100, burst: 500 }) // { allowed: true, remaining: 499, retryAfterMs: 0 }
 * ```
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly buckets: BoundedMap<string, Entry>
  private readonly maxKeys: number
  private readonly sweepIntervalMs: number
  private lastSweep = Number.NEGATIVE_INFINITY

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    this.maxKeys = options.maxKeys ?? 100_000
    this.sweepIntervalMs = options.sweepIntervalMs ?? 60_000
    if (!Number.isInteger(this.maxKeys) || this.maxKeys < 1) throw new TypeError(`maxKeys must be a whole number from 1, received ${String(options.maxKeys)}`)
    if (!(this.sweepIntervalMs > 0)) throw new TypeError(`sweepIntervalMs must be above 0, received ${String(options.sweepIntervalMs)}`)
    this.buckets = new BoundedMap(this.maxKeys, 'lru')
  }

  /**
   * Takes `cost` tokens from the bucket of `key` (see `RateLimitStore.take`). Synchronous: the map is updated
   * before it returns, so concurrent requests never spend the same token.
   *
   * @example
   * ```ts
   * const { allowed, retryAfterMs } = store.take('ip:127.0.0.1', 1, Date.now(), { perSecond: 200, burst: 1000 })
   * ```
   */
  take(key: string, cost: number, now: number, limit: BucketLimit): RateLimitDecision {
    if (now - this.lastSweep >= this.sweepIntervalMs) this.sweep(now)
    const entry = this.buckets.peek(key)
    const { state, decision } = takeTokens(entry?.state, limit, cost, now)
    // A least-recently-used map: past `maxKeys` a new key drops the oldest bucket (O(1), so a flood of new keys stays cheap).
    this.buckets.set(key, { state, limit })
    return decision
  }

  /**
   * How many buckets the store holds (idle ones included until the next sweep).
   *
   * @example
   * ```ts
   * store.size // 3
   * ```
   */
  get size(): number {
    return this.buckets.size
  }

  /**
   * Drops every bucket that is full again at `now`. Runs by itself every `sweepIntervalMs`; callable directly.
   *
   * @example
   * ```ts
   * store.sweep(Date.now())
   * ```
   */
  sweep(now: number): void {
    this.lastSweep = now
    for (const [key, entry] of this.buckets) if (fullAt(entry.state, entry.limit) <= now) this.buckets.delete(key)
  }
}
