import type { BucketLimit } from './bucket-limit.js'

/**
 * What a bucket remembers: the tokens it held at `updatedAt` (ms). Tokens flow back continuously, so the
 * count at any later time is computed, never stored on a timer.
 *
 * @example
 * ```ts
 * const state: BucketState = { tokens: 500, updatedAt: Date.now() }
 * ```
 */
export interface BucketState {
  /** Tokens held at `updatedAt`, between 0 and the burst (fractions allowed). @example `499.5` */
  tokens: number
  /** When `tokens` was computed, in milliseconds (the clock of the caller). @example `1767225600000` */
  updatedAt: number
}

/**
 * The answer of a bucket to one request.
 *
 * @example
 * ```ts
 * const decision: RateLimitDecision = { allowed: false, remaining: 0, retryAfterMs: 240 }
 * ```
 */
export interface RateLimitDecision {
  /** Whether the request may proceed (its tokens were taken). @example `true` */
  readonly allowed: boolean
  /** Whole tokens left after this request. @example `499` */
  readonly remaining: number
  /** When refused: how long until enough tokens are back, in ms (0 when allowed). @example `240` */
  readonly retryAfterMs: number
}

/**
 * The tokens a bucket holds at `now`: what it held, plus what flowed back since, capped at the burst. A clock
 * that went backwards adds nothing. A bucket never seen (`undefined`) is full.
 *
 * @example
 * ```ts
 * tokensAt({ tokens: 0, updatedAt: 0 }, { perSecond: 10, burst: 50 }, 1_000) // 10
 * ```
 */
export function tokensAt(state: BucketState | undefined, limit: BucketLimit, now: number): number {
  if (!state) return limit.burst
  const elapsedMs = Math.max(0, now - state.updatedAt)
  return Math.min(limit.burst, state.tokens + (elapsedMs * limit.perSecond) / 1000)
}

/**
 * Takes `cost` tokens from a bucket at `now`, or refuses when it holds fewer. A refused request takes nothing,
 * so a caller who keeps knocking still gets through at the sustained rate. Returns the bucket's new state and
 * the decision; `retryAfterMs` is the exact time until `cost` tokens are back (`Infinity` when `cost` exceeds
 * the burst, which no wait can fix).
 *
 * @example
 * ```ts
 * const limit = { perSecond: 1, burst: 1 }
 * const first = takeTokens(undefined, limit, 1, 0)         // allowed, remaining 0
 * const second = takeTokens(first.state, limit, 1, 250)    // refused, retryAfterMs 750
 * ```
 */
export function takeTokens(
  state: BucketState | undefined,
  limit: BucketLimit,
  cost: number,
  now: number,
): { state: BucketState; decision: RateLimitDecision } {
  const tokens = tokensAt(state, limit, now)
  if (tokens >= cost) {
    const left = tokens - cost
    return { state: { tokens: left, updatedAt: now }, decision: { allowed: true, remaining: Math.floor(left), retryAfterMs: 0 } }
  }
  const retryAfterMs = cost > limit.burst ? Number.POSITIVE_INFINITY : Math.ceil(((cost - tokens) * 1000) / limit.perSecond)
  return { state: { tokens, updatedAt: now }, decision: { allowed: false, remaining: Math.floor(tokens), retryAfterMs } }
}

/**
 * When a bucket will be full again (in ms on the caller's clock); from then on it is the same as a bucket
 * never seen, so a store may forget it without changing any decision.
 *
 * @example
 * ```ts
 * fullAt({ tokens: 40, updatedAt: 1_000 }, { perSecond: 10, burst: 50 }) // 2000
 * ```
 */
export function fullAt(state: BucketState, limit: BucketLimit): number {
  return state.updatedAt + ((limit.burst - state.tokens) * 1000) / limit.perSecond
}
