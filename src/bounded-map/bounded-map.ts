/**
 * What a full `BoundedMap` drops to make room for a new key:
 * - `lru`: the least recently used entry (`get` and `set` count as a use);
 * - `fifo`: the oldest inserted entry (a use does not move it);
 * - `clear`: every entry at once (the cheapest: for memos of few hot keys, where refilling is cheap).
 */
export type EvictionPolicy = 'lru' | 'fifo' | 'clear'

/**
 * A `Map` that never holds more than `capacity` entries, evicting by the policy named at construction. The one
 * bounded cache of botshelf: memos and caches state their capacity and policy here instead of hand-written checks.
 * A capacity of 0 keeps nothing.
 *
 * @example
 * ```ts
 * const origins = new BoundedMap<string, string | null>(256, 'clear')
 * origins.set('http://localhost:3000', 'http://localhost:3000')
 * origins.get('http://localhost:3000') // 'http://localhost:3000'
 * ```
 */
export class BoundedMap<K, V> {
  private entries = new Map<K, V>()

  /**
   * A bounded map of at most `capacity` entries (an integer, 0 or more) evicting by `policy`.
   *
   * @example
   * ```ts
   * new BoundedMap<string, number>(1000, 'lru')
   * ```
   */
  constructor(
    readonly capacity: number,
    readonly policy: EvictionPolicy,
  ) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`BoundedMap capacity: expected an integer of 0 or more, received ${String(capacity)}`)
  }

  /**
   * How many entries the map holds (never more than `capacity`).
   *
   * @example
   * ```ts
   * map.size // 3
   * ```
   */
  get size(): number {
    return this.entries.size
  }

  /**
   * The value of `key`, or `undefined`. Under `lru` it makes `key` the most recently used.
   *
   * @example
   * ```ts
   * map.get('a') // 1
   * ```
   */
  get(key: K): V | undefined {
    const value = this.entries.get(key)
    if (value !== undefined && this.policy === 'lru') {
      this.entries.delete(key)
      this.entries.set(key, value)
    }
    return value
  }

  /**
   * The value of `key` without counting as a use.
   *
   * @example
   * ```ts
   * map.peek('a') // 1, the order of eviction unchanged
   * ```
   */
  peek(key: K): V | undefined {
    return this.entries.get(key)
  }

  /**
   * Whether `key` is held (not a use).
   *
   * @example
   * ```ts
   * map.has('a') // true
   * ```
   */
  has(key: K): boolean {
    return this.entries.has(key)
  }

  /**
   * Stores `value` under `key`, evicting by the policy when a new key finds the map full.
   *
   * @example
   * ```ts
   * map.set('a', 1)
   * ```
   */
  set(key: K, value: V): this {
    if (this.capacity === 0) return this
    if (this.entries.has(key)) {
      if (this.policy === 'lru') this.entries.delete(key)
      this.entries.set(key, value)
      return this
    }
    if (this.entries.size >= this.capacity) {
      if (this.policy === 'clear') this.entries = new Map()
      else this.entries.delete(this.entries.keys().next().value as K)
    }
    this.entries.set(key, value)
    return this
  }

  /**
   * Forgets `key`; true when it was held.
   *
   * @example
   * ```ts
   * map.delete('a') // true
   * ```
   */
  delete(key: K): boolean {
    return this.entries.delete(key)
  }

  /**
   * Forgets every entry.
   *
   * @example
   * ```ts
   * map.clear()
   * ```
   */
  clear(): void {
    this.entries.clear()
  }

  /**
   * The keys, next to be evicted first (under `clear`: in insertion order).
   *
   * @example
   * ```ts
   * [...map.keys()] // ['a', 'b']
   * ```
   */
  keys(): IterableIterator<K> {
    return this.entries.keys()
  }

  /**
   * The values, in the order of `keys()`.
   *
   * @example
   * ```ts
   * [...map.values()] // [1, 2]
   * ```
   */
  values(): IterableIterator<V> {
    return this.entries.values()
  }

  /**
   * The entries, in the order of `keys()`.
   *
   * @example
   * ```ts
   * for (const [key, value] of map) console.log(key, value)
   * ```
   */
  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries.entries()
  }
}
