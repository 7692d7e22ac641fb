/**
 * The one clock type of botshelf and botshelf-server: a function that returns the current time. Everything that
 * stamps a time takes one, so a test that passes a fake clock (`createFakeClock().now`) controls all of them.
 *
 * @example
 * ```ts
 * let t = new Date('2026-01-01T00:00:00Z')
 * const clock: Clock = () => t
 * ```
 */
export type Clock = () => Date

/**
 * What the webhook options have accepted since they exist: a clock that may also answer epoch milliseconds.
 * Every `Clock` is one; `toClock` turns it into a `Clock`.
 *
 * @example
 * ```ts
 * const clock: ClockLike = () => Date.now()
 * ```
 */
export type ClockLike = () => Date | number

/**
 * The real clock, the default of every `now` option.
 *
 * @example
 * ```ts
 * openSqliteBackend({ memory: true, now: systemClock })
 * ```
 */
export const systemClock: Clock = () => new Date()

/**
 * The `Clock` for an optional `now` option: the real clock when absent, a `Date`-answering wrapper when the
 * given clock may answer epoch milliseconds.
 *
 * @example
 * ```ts
 * const now = toClock(options.now) // () => Date
 * toClock(() => 0)().toISOString() // '1970-01-01T00:00:00.000Z'
 * ```
 */
export function toClock(now: ClockLike | undefined): Clock {
  if (now === undefined) return systemClock
  return () => {
    const value = now()
    return typeof value === 'number' ? new Date(value) : value
  }
}

/**
 * The current time of an optional clock in epoch milliseconds (the real time when absent).
 *
 * @example
 * ```ts
 * clockMs(() => new Date('1970-01-01T00:00:01Z')) // 1000
 * ```
 */
export function clockMs(now: ClockLike | undefined): number {
  const value = now ? now() : Date.now()
  return typeof value === 'number' ? value : value.getTime()
}
