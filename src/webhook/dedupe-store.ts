import { BoundedMap } from '../bounded-map/index.js'
import { clockMs, type ClockLike } from '../clock/index.js'

/**
 * Remembers webhook ids to refuse duplicates. Plug your own (Redis `SET NX PX`, a SQL table with a unique key)
 * when several processes receive webhooks.
 *
 * @example
 * ```ts
 * const redisStore: WebhookDedupeStore = {
 *   claim: async (id, ttlMs) => (await redis.set(`wh:${id}`, '1', 'PX', ttlMs, 'NX')) === 'OK',
 *   release: async (id) => void (await redis.del(`wh:${id}`)),
 * }
 * ```
 */
export interface WebhookDedupeStore {
  /** Records `id` for `ttlMs` milliseconds. Returns true when the id was new, false for a duplicate. Must be atomic. */
  claim(id: string, ttlMs: number): boolean | Promise<boolean>
  /** Forgets `id`, so that a retry of a request refused after its claim (bad JSON, handler crash) is processed. */
  release(id: string): void | Promise<void>
}

/** Options of `createMemoryDedupeStore`. */
export interface MemoryDedupeStoreOptions {
  /**
   * Clock. Default: the real time.
   * @example `now: clock.now`
   */
  now?: ClockLike
  /**
   * Most ids kept; past it the oldest are forgotten first. Default 100 000.
   * @example `maxEntries: 10_000`
   */
  maxEntries?: number
}

/**
 * An in-memory dedupe store with a time-to-live per id: fine for one process. The webhook handler uses one by
 * default, with a TTL of twice the timestamp tolerance (older replays are refused by the timestamp check anyway).
 *
 * @example
 * ```ts
 * const handler = createWebhookHandler({ runtime, secret, dedupe: createMemoryDedupeStore({ maxEntries: 10_000 }) })
 * ```
 */
export function createMemoryDedupeStore(options: MemoryDedupeStoreOptions = {}): WebhookDedupeStore & { readonly size: number } {
  const now = (): number => clockMs(options.now)
  const maxEntries = options.maxEntries ?? 100_000
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError(`maxEntries: expected a positive integer, received ${String(maxEntries)}`)
  }
  // Insertion order is expiry order (one TTL per store in practice): a re-claimed id moves last, the oldest goes first.
  const expiries = new BoundedMap<string, number>(maxEntries, 'fifo')
  const prune = (at: number): void => {
    for (const [id, expiresAt] of expiries) {
      if (expiresAt > at) break
      expiries.delete(id)
    }
  }
  return {
    claim(id, ttlMs) {
      const at = now()
      prune(at)
      const known = expiries.get(id)
      if (known !== undefined && known > at) return false
      expiries.delete(id)
      expiries.set(id, at + ttlMs)
      return true
    },
    release(id) {
      expiries.delete(id)
    },
    get size() {
      return expiries.size
    },
  }
}
