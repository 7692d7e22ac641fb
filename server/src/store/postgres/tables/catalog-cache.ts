import { BoundedMap } from 'botshelf/api'
import type { TableRecord } from '../../tables/types.js'

/** A catalog record as a find last read it, with what its freshness guard compares. */
export interface CachedCatalogEntry {
  /** The table's record at `version`. */
  readonly record: TableRecord
  /** The catalog row's `version` when it was read (bigint as text). */
  readonly version: string
  /** The reference was the table's name (not its id): the guard also checks the name still belongs to it. */
  readonly byName: boolean
}

/** Entries a port keeps when its options do not say (decision 0963). */
export const DEFAULT_CATALOG_CACHE_SIZE = 1000

/**
 * The catalog records that finds on the pool used last, by (bot, reference as given: id or name), least recently
 * used first out past `capacity` (decision 0963). It holds no truth: a find checks its entry against the catalog
 * in its own statement (`guardedFind`), and drops it when another server or another port changed the table.
 *
 * @example
 * ```ts
 * const cache = new CatalogCache(1000)
 * cache.set('bot_1', 'ordersTable', { record, version: '3', byName: true })
 * cache.get('bot_1', 'ordersTable')?.version // '3'
 * ```
 */
export class CatalogCache {
  private readonly entries: BoundedMap<string, CachedCatalogEntry>

  /**
   * A cache of at most `capacity` entries (0 keeps nothing).
   *
   * @example
   * ```ts
   * new CatalogCache(DEFAULT_CATALOG_CACHE_SIZE)
   * ```
   */
  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`catalog cache capacity: expected an integer of 0 or more, received ${capacity}`)
    this.entries = new BoundedMap(capacity, 'lru')
  }

  /**
   * The entry of a reference, now the most recently used, or `undefined`.
   *
   * @example
   * ```ts
   * const entry = cache.get('bot_1', 'ordersTable')
   * ```
   */
  get(botId: string, ref: string): CachedCatalogEntry | undefined {
    return this.entries.get(keyOf(botId, ref))
  }

  /**
   * Keeps an entry (the most recently used), dropping the least recently used past the capacity.
   *
   * @example
   * ```ts
   * cache.set('bot_1', 'table_01K86HD0D5T3HFCGBEKQJFNKAD', { record, version: '0', byName: false })
   * ```
   */
  set(botId: string, ref: string, entry: CachedCatalogEntry): void {
    this.entries.set(keyOf(botId, ref), entry)
  }

  /**
   * Forgets a reference's entry (its guard failed).
   *
   * @example
   * ```ts
   * cache.delete('bot_1', 'ordersTable')
   * ```
   */
  delete(botId: string, ref: string): void {
    this.entries.delete(keyOf(botId, ref))
  }

  /**
   * How many entries are kept.
   *
   * @example
   * ```ts
   * cache.size <= cache.capacity // true
   * ```
   */
  get size(): number {
    return this.entries.size
  }
}

/** Bot ids hold no NUL, so the pair maps to one key and back. */
const keyOf = (botId: string, ref: string) => `${botId}\u0000${ref}`
