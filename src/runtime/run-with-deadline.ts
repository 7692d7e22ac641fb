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
 */
export async function runWithDeadline<T>(fn: (signal: AbortSignal) => T | Promise<T>, timeoutMs: number): Promise<DeadlineOutcome<T>> {
  const started = performance.now()
  const elapsed = (): number => Math.round((performance.now() - started) * 1000) / 1000
  const controller = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new DeadlineExceeded(timeoutMs))
      resolve('timeout')
    }, timeoutMs)
  })
  const work = (async () => fn(controller.signal))()
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
