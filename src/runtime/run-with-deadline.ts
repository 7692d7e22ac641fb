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
 * The cancellation of one handler run. Its `signal` is made on first read: building an `AbortController` was a
 * noticeable share of a webhook request, and most handlers never read their signal. A signal first read after the
 * deadline passed is already aborted, with the same reason.
 */
export class DeadlineSignal {
  private controller: AbortController | undefined
  private reason: DeadlineExceeded | undefined

  /** The handler's signal: aborted with `DeadlineExceeded` when the deadline passes. */
  public get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController()
      if (this.reason) this.controller.abort(this.reason)
    }
    return this.controller.signal
  }

  /** Aborts the signal (now if it exists, at its first read otherwise). */
  public abort(reason: DeadlineExceeded): void {
    this.reason ??= reason
    this.controller?.abort(reason)
  }
}

/**
 * Runs `fn` with a `DeadlineSignal` whose signal aborts after `timeoutMs`. A handler that does not settle by then
 * is reported as `timeout`; its late result or rejection is ignored (JavaScript cannot stop it; the aborted signal
 * is how it learns to stop).
 *
 * A handler that answers synchronously (a value or a throw) is done before any timer could fire, so it gets no
 * timer and no race: the deadline is armed only when `fn` returns a promise, for the time that is left.
 *
 * @example
 * ```ts
 * const outcome = await runWithDeadline((deadline) => fetch(url, { signal: deadline.signal }), 2_000)
 * if (outcome.status === 'timeout') console.warn('gave up after', outcome.durationMs, 'ms')
 * ```
 */
export function runWithDeadline<T>(fn: (deadline: DeadlineSignal) => T | Promise<T>, timeoutMs: number): Promise<DeadlineOutcome<T>> {
  const started = performance.now()
  const elapsed = (): number => Math.round((performance.now() - started) * 1000) / 1000
  const deadline = new DeadlineSignal()
  let result: T | Promise<T>
  try {
    result = fn(deadline)
  } catch (error) {
    return Promise.resolve({ status: 'error', error, durationMs: elapsed() })
  }
  if (!isThenable(result)) return Promise.resolve({ status: 'ok', value: result, durationMs: elapsed() })
  return raceDeadline(Promise.resolve(result), deadline, timeoutMs - (performance.now() - started), timeoutMs, elapsed)
}

async function raceDeadline<T>(
  work: Promise<T>,
  cancellation: DeadlineSignal,
  remainingMs: number,
  timeoutMs: number,
  elapsed: () => number,
): Promise<DeadlineOutcome<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(
      () => {
        cancellation.abort(new DeadlineExceeded(timeoutMs))
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
