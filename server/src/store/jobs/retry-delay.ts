/** The delay before the second attempt; each later one doubles it. */
export const JOB_RETRY_BASE_MS = 1_000

/** The longest delay between two attempts. */
export const JOB_RETRY_CAP_MS = 5 * 60_000

/**
 * How long a job waits after its `attempts`-th attempt failed: 1 s, 2 s, 4 s, ... doubling up to 5 minutes.
 * Deterministic on purpose (no jitter): every backend pushes `runAt` back by exactly this, so a test with a fake
 * clock can assert it. Jobs are few and claimed one at a time, so there is no retry stampede for jitter to spread.
 *
 * @example
 * ```ts
 * jobRetryDelayMs(1) // 1000
 * jobRetryDelayMs(3) // 4000
 * jobRetryDelayMs(20) // 300000
 * ```
 */
export function jobRetryDelayMs(attempts: number): number {
  const exponent = Math.max(0, attempts - 1)
  // 2 ** 30 s is far past the cap already; stopping there keeps the number finite for any attempts count.
  return Math.min(JOB_RETRY_BASE_MS * 2 ** Math.min(exponent, 30), JOB_RETRY_CAP_MS)
}
