/** How a handler run ended. */
export type DeadlineOutcome<T> =
  | { status: 'ok'; value: T; durationMs: number }
  | { status: 'error'; error: unknown; durationMs: number }
  | { status: 'timeout'; durationMs: number }

/** Raised as the abort reason of a handler's signal when its deadline passes. */
export class DeadlineExceeded extends Error {
  override readonly name = 'TimeoutError'
  constructor(readonly timeoutMs: number) {
    super(`deadline of ${timeoutMs} ms exceeded`)
  }
}

/**
 * Runs `fn` with an `AbortSignal` that aborts after `timeoutMs`. A handler that does not settle by then is
 * reported as `timeout`; its late result or rejection is ignored (JavaScript cannot stop it; the aborted signal
 * is how it learns to stop).
 *
 * A handler that answers synchronously (a value or a throw) is done before any timer could fire, so it gets no
 * timer and no race: the deadline is armed only when `fn` returns a promise, for the time that is left.
 *
 * @example
 * ```ts
 * const outcome = await runWithDeadline((signal) => fetch(url, { signal }), 2_000)
 * if (outcome.status === 'timeout') console.warn('gave up after', outcome.durationMs, 'ms')
 * ```
 */
export function runWithDeadline<T>(fn: (signal: AbortSignal) => T | Promise<T>, timeoutMs: number): Promise<DeadlineOutcome<T>> {
  const started = performance.now()
  const elapsed = (): number => Math.round((performance.now() - started) * 1000) / 1000
  const controller = new AbortController()
  let result: T | Promise<T>
  try {
    result = fn(controller.signal)
  } catch (error) {
    return Promise.resolve({ status: 'error', error, durationMs: elapsed() })
  }
  if (!isThenable(result)) return Promise.resolve({ status: 'ok', value: result, durationMs: elapsed() })
  return raceDeadline(Promise.resolve(result), controller, timeoutMs - (performance.now() - started), timeoutMs, elapsed)
}

async function raceDeadline<T>(
  work: Promise<T>,
  controller: AbortController,
  remainingMs: number,
  timeoutMs: number,
  elapsed: () => number,
): Promise<DeadlineOutcome<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(
      () => {
        controller.abort(new DeadlineExceeded(timeoutMs))
        resolve('timeout')
      },
      Math.max(0, remainingMs),
    )
  })
  work.catch(() => undefined) // a rejection after the deadline must not become an unhandled rejection
  try {
    const winner = await Promise.race([work.then((value) => ({ value })), deadline])
    if (winner === 'timeout') return { status: 'timeout', durationMs: elapsed() }
    return { status: 'ok', value: winner.value, durationMs: elapsed() }
  } catch (error) {
    return { status: 'error', error, durationMs: elapsed() }
  } finally {
    clearTimeout(timer)
  }
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function'
}
