import type { Clock } from '../clock/index.js'

/** A clock you move by hand. Pass `clock.now` wherever a `now` option is taken. */
export interface FakeClock {
  /** The current fake time (a new `Date` each call). */
  readonly now: Clock
  /** Moves the clock forward (or back, with a negative value) by `ms` milliseconds. */
  advance(ms: number): Date
  /** Sets the clock to a given time. */
  set(time: Date | string | number): Date
}

/**
 * A fake clock, starting at 2024-01-01T00:00:00Z unless told otherwise. `now` is a bound function, so
 * `{ now: clock.now }` works.
 *
 * @example
 * ```ts
 * const clock = createFakeClock()
 * const handler = createWebhookHandler({ runtime, secret, now: clock.now })
 * clock.advance(301_000) // now requests signed at the start are too old
 * ```
 */
export function createFakeClock(start: Date | string | number = '2024-01-01T00:00:00.000Z'): FakeClock {
  let current = toMs(start)
  return {
    now: () => new Date(current),
    advance(ms: number): Date {
      if (!Number.isFinite(ms)) throw new RangeError(`advance: expected a finite number of milliseconds, received ${String(ms)}`)
      current += ms
      return new Date(current)
    },
    set(time: Date | string | number): Date {
      current = toMs(time)
      return new Date(current)
    },
  }
}

function toMs(time: Date | string | number): number {
  const ms = time instanceof Date ? time.getTime() : typeof time === 'number' ? time : Date.parse(time)
  if (!Number.isFinite(ms)) throw new RangeError(`Fake clock: invalid time ${JSON.stringify(String(time))}`)
  return ms
}
