/**
 * One token bucket's limit: `perSecond` tokens flow back every second, and the bucket holds at most `burst`
 * (it starts full). One request takes one token, so a caller may send `burst` requests at once, then
 * `perSecond` a second for as long as it keeps going (docs/decisions/0702-rate-limits-and-timeouts.md).
 *
 * @example
 * ```ts
 * const limit: BucketLimit = { perSecond: 100, burst: 500 }
 * ```
 */
export interface BucketLimit {
  /**
   * Sustained rate, in requests per second; fractions allowed (`0.5` is 30 a minute).
   *
   * @example
   * ```ts
   * { perSecond: 100, burst: 500 }
   * ```
   */
  readonly perSecond: number
  /**
   * Size of the bucket: how many requests may arrive at once after a quiet spell. A whole number from 1.
   *
   * @example
   * ```ts
   * { perSecond: 1, burst: 10 }
   * ```
   */
  readonly burst: number
}

/** The highest sustained rate a limit may name, in requests per second. */
export const MAX_PER_SECOND = 1_000_000
/** The largest burst a limit may name. */
export const MAX_BURST = 100_000_000

/**
 * Checks a limit and says what is wrong with it, or returns `undefined` when it is valid.
 *
 * @example
 * ```ts
 * bucketLimitProblem({ perSecond: 0, burst: 5 }) // 'perSecond must be a number above 0 and at most 1000000, received 0'
 * bucketLimitProblem({ perSecond: 10, burst: 50 }) // undefined
 * ```
 */
export function bucketLimitProblem(limit: BucketLimit): string | undefined {
  const { perSecond, burst } = limit
  if (typeof perSecond !== 'number' || !Number.isFinite(perSecond) || perSecond <= 0 || perSecond > MAX_PER_SECOND) {
    return `perSecond must be a number above 0 and at most ${MAX_PER_SECOND}, received ${String(perSecond)}`
  }
  if (typeof burst !== 'number' || !Number.isInteger(burst) || burst < 1 || burst > MAX_BURST) {
    return `burst must be a whole number from 1 to ${MAX_BURST}, received ${String(burst)}`
  }
  return undefined
}

/**
 * The burst a rate gets when none is given: five seconds' worth of requests, at least 1.
 *
 * @example
 * ```ts
 * defaultBurstFor(100) // 500
 * defaultBurstFor(0.5) // 3
 * ```
 */
export function defaultBurstFor(perSecond: number): number {
  return Math.max(1, Math.ceil(perSecond * 5))
}

/**
 * Writes a limit the way `--rate-limit` reads it: `100/s,burst=500`, or per minute / per hour when the rate is
 * a whole number of those (`30/m,burst=3`).
 *
 * @example
 * ```ts
 * formatBucketLimit({ perSecond: 100, burst: 500 }) // '100/s,burst=500'
 * formatBucketLimit({ perSecond: 0.5, burst: 3 }) // '30/m,burst=3'
 * ```
 */
export function formatBucketLimit(limit: BucketLimit): string {
  return `${formatRate(limit.perSecond)},burst=${limit.burst}`
}

/**
 * A rate as `<n>/s`, `<n>/m` or `<n>/h`, choosing the first unit where it is a whole number.
 *
 * @example
 * ```ts
 * formatRate(2) // '2/s'
 * formatRate(1 / 60) // '1/m'
 * ```
 */
export function formatRate(perSecond: number): string {
  for (const [unit, seconds] of [['s', 1], ['m', 60], ['h', 3600]] as const) {
    const count = perSecond * seconds
    if (Math.abs(count - Math.round(count)) < 1e-9) return `${Math.round(count)}/${unit}`
  }
  return `${perSecond}/s`
}

/**
 * The limit in words, for the 429 message: `100 requests per second (bursts of 500)`.
 *
 * @example
 * ```ts
 * describeBucketLimit({ perSecond: 0.5, burst: 3 }) // '30 requests per minute (bursts of 3)'
 * ```
 */
export function describeBucketLimit(limit: BucketLimit): string {
  const [count, unit] = formatRate(limit.perSecond).split('/') as [string, string]
  const per = unit === 's' ? 'second' : unit === 'm' ? 'minute' : 'hour'
  return `${count} request${count === '1' ? '' : 's'} per ${per} (bursts of ${limit.burst})`
}
