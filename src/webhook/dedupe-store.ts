import { BoundedMap } from '../bounded-map/index.js'
import { clockMs, type ClockLike } from '../clock/index.js'

/**
 * What `claim` found: `new` (the id is now claimed by the caller), `processing` (another request holds it and has
 * not finished) or `processed` (an earlier request with this id was processed or durably accepted).
 */
export type DedupeClaim = 'new' | 'processing' | 'processed'

/**
 * Remembers webhook ids so that an id is processed once. A claimed id is `processing` until `complete` marks it
 * `processed` or `release` forgets it (a failed processing: the sender's retry must run). Plug your own (Redis, a
 * SQL table with a unique key) when several processes receive webhooks.
 *
 * @example
 * ```ts
 * const redisStore: WebhookDedupeStore = {
 *   claim: async (id, ttlMs) => {
 *     if ((await redis.set(`wh:${id}`, 'processing', 'PX', ttlMs, 'NX')) === 'OK') return 'new'
 *     return (await redis.get(`wh:${id}`)) === 'processed' ? 'processed' : 'processing'
 *   },
 *   complete: async (id, ttlMs) => void (await redis.set(`wh:${id}`, 'processed', 'PX', ttlMs)),
 *   release: async (id) => void (await redis.del(`wh:${id}`)),
 * }
 * ```
 */
export interface WebhookDedupeStore {
  /** Claims `id` for `ttlMs` milliseconds when it is unknown (answers `new`); must be atomic. */
  claim(id: string, ttlMs: number): DedupeClaim | Promise<DedupeClaim>
  /** Marks a claimed `id` processed, kept for `ttlMs` milliseconds: later requests with it are duplicates. */
  complete(id: string, ttlMs: number): void | Promise<void>
  /** Forgets `id`, so that a retry of a request that failed after its claim (bad JSON, a failed hook) is processed. */
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

interface Remembered {
  expiresAt: number
  processed: boolean
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
  const ids = new BoundedMap<string, Remembered>(maxEntries, 'fifo')
  const prune = (at: number): void => {
    for (const [id, { expiresAt }] of ids) {
      if (expiresAt > at) break
      ids.delete(id)
    }
  }
  return {
    claim(id, ttlMs) {
      const at = now()
      prune(at)
      const known = ids.get(id)
      if (known !== undefined && known.expiresAt > at) return known.processed ? 'processed' : 'processing'
      ids.delete(id)
      ids.set(id, { expiresAt: at + ttlMs, processed: false })
      return 'new'
    },
    complete(id, ttlMs) {
      ids.delete(id)
      ids.set(id, { expiresAt: now() + ttlMs, processed: true })
    },
    release(id) {
      ids.delete(id)
    },
    get size() {
      return ids.size
    },
  }
}
