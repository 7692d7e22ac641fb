import { InboxError } from './errors.js'

/** The default waits between runs of a failing event: 1 s, 5 s, 30 s, 2 min, 10 min (six runs in all). */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = Object.freeze([1_000, 5_000, 30_000, 120_000, 600_000])

/**
 * Checks a retry schedule: a list of waits in milliseconds, one per retry (so runs = length + 1).
 *
 * @example
 * ```ts
 * checkRetryDelays([10, 100]) // [10, 100]: three runs, then the dead-letter list
 * ```
 */
export function checkRetryDelays(delays: unknown): readonly number[] {
  if (delays === undefined) return DEFAULT_RETRY_DELAYS_MS
  if (!Array.isArray(delays) || delays.some((d) => typeof d !== 'number' || !Number.isFinite(d) || d < 0)) {
    throw new InboxError(
      'INVALID_INBOX_OPTIONS',
      `retryDelaysMs: expected a list of waits in milliseconds (numbers ≥ 0), received ${JSON.stringify(delays)}`,
    )
  }
  return Object.freeze([...(delays as number[])])
}
