import { setTimeout as wait } from 'node:timers/promises'
import { TransientFailure } from './transient-failure.js'

/** When to try a remote call again after a `TransientFailure`. */
export interface RetryPolicy {
  /** Retries after the first attempt, e.g. `3`. */
  maxRetries: number
  /** First backoff in milliseconds when the service sends no `Retry-After`, doubled per retry, e.g. `500`. */
  backoffMs: number
  /** The longest wait honoured inside one call; a longer one gives up at once so a job can reschedule, e.g. `60_000`. */
  maxWaitMs: number
  /** Waits between retries (default a real timer); tests pass an instant one. */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined
}

/** Why a call gave up: the last failure, the attempts made and the wait the next try should respect. */
export interface GiveUp {
  failure: TransientFailure
  attempts: number
  /** Milliseconds to wait before trying again (the service's `Retry-After`, or the next backoff). */
  retryAfterMs: number
}

/**
 * Runs `attempt` until it returns something other than a `TransientFailure`, waiting between tries (the service's
 * `Retry-After`, else exponential backoff). After `maxRetries` retries, or when the wait asked is longer than
 * `maxWaitMs`, throws the error `giveUp` makes (an "unavailable, try again in N ms" error of the caller's kind).
 *
 * @example
 * ```ts
 * const answer = await retryTransient(() => postJsonOnce(url, body, { timeoutMs }), { maxRetries: 3, backoffMs: 500, maxWaitMs: 60_000 }, signal,
 *   ({ failure, retryAfterMs }) => new MyUnavailableError(failure.reason, retryAfterMs))
 * ```
 */
export async function retryTransient<T>(
  attempt: () => Promise<T | TransientFailure>,
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
  giveUp: (why: GiveUp) => Error,
): Promise<T> {
  const sleep = policy.sleep ?? ((ms: number, abort?: AbortSignal) => wait(ms, undefined, { signal: abort }))
  for (let retry = 0; ; retry++) {
    const result = await attempt()
    if (!(result instanceof TransientFailure)) return result
    const delay = result.retryAfterMs ?? policy.backoffMs * 2 ** retry
    if (retry >= policy.maxRetries || delay > policy.maxWaitMs) throw giveUp({ failure: result, attempts: retry + 1, retryAfterMs: delay })
    await sleep(delay, signal)
  }
}
