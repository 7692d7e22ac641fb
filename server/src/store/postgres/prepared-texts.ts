import type { PgSql } from './pg-types.js'
import { BoundedMap } from 'botshelf/api'

/** Limits of a {@link PreparedTexts} registry (decision 0964). */
export interface PreparedTextsOptions {
  /** Runs of a text (within the last `seenCapacity` distinct texts) before it is prepared (default 3). */
  readonly runsBeforePrepare: number
  /** Distinct texts whose runs are counted, least recently run out first (default 1,000). */
  readonly seenCapacity: number
  /** Texts prepared at once, least recently run out first (default 64). */
  readonly preparedCapacity: number
  /** Texts that may become prepared within any `windowMs` (default 64). */
  readonly promotionsPerWindow: number
  /** The window of `promotionsPerWindow`: the longest a connection lives, {@link MAX_CONNECTION_LIFETIME_S} (default one hour). */
  readonly windowMs: number
  /** The clock, in milliseconds (default `Date.now`). */
  readonly now: () => number
}

/**
 * The longest a pooled connection lives, in seconds: the driver closes it after a random 30 to 60 minutes (then
 * opens a new one on demand), and the server drops every statement prepared on it. {@link PreparedTexts} counts its
 * promotions over this window.
 */
export const MAX_CONNECTION_LIFETIME_S = 3600

/** The limits used when none are given: at most 64 + 64 = 128 prepared find texts on any connection. */
export const DEFAULT_PREPARED_TEXTS: PreparedTextsOptions = {
  runsBeforePrepare: 3,
  seenCapacity: 1000,
  preparedCapacity: 64,
  promotionsPerWindow: 64,
  windowMs: MAX_CONNECTION_LIFETIME_S * 1000,
  now: () => Date.now(),
}

/**
 * Which statement texts built from users' input (finds) run prepared, so a connection keeps a bounded number of
 * server-side statements (decision 0964). A text runs unprepared (parsed and planned on every call) until it has
 * run `runsBeforePrepare` times while among the last `seenCapacity` distinct texts; then it is prepared (the
 * driver prepares it on each connection that runs it, and later calls only bind and execute), as long as fewer
 * than `promotionsPerWindow` texts became prepared within the last `windowMs`. At most `preparedCapacity` texts
 * are prepared at once; the least recently run one goes back to unprepared. The driver never closes a statement,
 * but it closes each connection within {@link MAX_CONNECTION_LIFETIME_S}, which drops them all on the server. A
 * connection therefore holds at most `preparedCapacity` (prepared when it opened) + `promotionsPerWindow`
 * (prepared during its life) of these texts. Values stay parameters: the same filter shape with other values is
 * the same text.
 *
 * The key is the text with the kinds of its values the driver tells the server (the driver prepares one statement
 * per text and kinds).
 *
 * @example
 * ```ts
 * const texts = preparedTextsOf(pool)
 * const rows = await pool.unsafe(text, params, { prepare: texts.shouldPrepare(text, params) })
 * ```
 */
export class PreparedTexts {
  /** Runs of the last distinct texts not prepared yet. */
  private readonly seen: BoundedMap<string, number>
  /** The prepared texts (the value means nothing). */
  private readonly prepared: BoundedMap<string, true>
  private readonly promotions: number[] = []
  readonly options: PreparedTextsOptions

  /**
   * A registry with the given limits (the rest from {@link DEFAULT_PREPARED_TEXTS}).
   *
   * @example
   * ```ts
   * const texts = new PreparedTexts({ preparedCapacity: 16 })
   * ```
   */
  constructor(options: Partial<PreparedTextsOptions> = {}) {
    this.options = { ...DEFAULT_PREPARED_TEXTS, ...options }
    for (const name of ['runsBeforePrepare', 'seenCapacity', 'preparedCapacity', 'promotionsPerWindow', 'windowMs'] as const) {
      const value = this.options[name]
      if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name}: expected an integer of 0 or more, received ${String(value)}`)
    }
    this.seen = new BoundedMap(this.options.seenCapacity, 'lru')
    this.prepared = new BoundedMap(this.options.preparedCapacity, 'lru')
  }

  /**
   * Counts a run of `text` with `params` and answers whether to run it prepared.
   *
   * @example
   * ```ts
   * texts.shouldPrepare('SELECT … WHERE t."c1" >= $1::float8 …', [10, 21, 0]) // false, false, then true
   * ```
   */
  shouldPrepare(text: string, params: readonly unknown[]): boolean {
    const key = keyOf(text, params)
    if (this.prepared.get(key)) return true
    const runs = (this.seen.get(key) ?? 0) + 1
    this.seen.delete(key)
    if (runs >= this.options.runsBeforePrepare && this.promote()) {
      this.prepared.set(key, true)
      return true
    }
    this.seen.set(key, runs)
    return false
  }

  /**
   * How many texts are prepared now and how many became prepared within the window.
   *
   * @example
   * ```ts
   * texts.stats() // { prepared: 3, promotedInWindow: 5 }
   * ```
   */
  stats(): { prepared: number; promotedInWindow: number } {
    this.forgetOldPromotions()
    return { prepared: this.prepared.size, promotedInWindow: this.promotions.length }
  }

  /** Takes one promotion from the window's budget, or answers false when it is spent. */
  private promote(): boolean {
    if (this.options.preparedCapacity === 0) return false
    this.forgetOldPromotions()
    if (this.promotions.length >= this.options.promotionsPerWindow) return false
    this.promotions.push(this.options.now())
    return true
  }

  private forgetOldPromotions(): void {
    const since = this.options.now() - this.options.windowMs
    let old = 0
    while (old < this.promotions.length && this.promotions[old]! <= since) old++
    if (old > 0) this.promotions.splice(0, old)
  }
}

/** The text with the kinds of its values as the driver infers them (its statements are per text and kinds). */
function keyOf(text: string, params: readonly unknown[]): string {
  let kinds = ''
  for (const value of params) kinds += kindOf(value)
  return `${kinds}|${text}`
}

function kindOf(value: unknown): string {
  if (value === true || value === false) return 'b'
  if (value instanceof Date) return 'd'
  if (value instanceof Uint8Array) return 'y'
  if (typeof value === 'bigint') return 'g'
  if (Array.isArray(value)) return `[${value.length === 0 ? '' : kindOf(value[0])}`
  return '.'
}

const registries = new WeakMap<object, PreparedTexts>()

/**
 * The one registry of a pool (every port on it shares it, so the bound is per connection, not per port).
 *
 * @example
 * ```ts
 * preparedTextsOf(pool).shouldPrepare(text, params)
 * ```
 */
export function preparedTextsOf(sql: PgSql): PreparedTexts {
  let registry = registries.get(sql)
  if (registry === undefined) {
    registry = new PreparedTexts()
    registries.set(sql, registry)
  }
  return registry
}
