import { AbortError, TimeoutError } from '../errors/client-errors.js'

/**
 * One attempt's cancellation: aborts when the caller's signal aborts or when the time limit passes,
 * and remembers which of the two happened so the right error class is thrown.
 */
export class AttemptSignal {
  private readonly controller = new AbortController()
  private timer: ReturnType<typeof setTimeout> | undefined
  private timedOut = false
  private readonly onCallerAbort = (): void => this.controller.abort(this.callerSignal?.reason)

  public constructor(
    private readonly callerSignal: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {
    if (callerSignal?.aborted) {
      this.controller.abort(callerSignal.reason)
    } else {
      callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true })
      this.timer = setTimeout(() => {
        this.timedOut = true
        this.controller.abort(new TimeoutError(timeoutMs))
      }, timeoutMs)
    }
  }

  /** The signal to hand to `fetch`. */
  public get signal(): AbortSignal {
    return this.controller.signal
  }

  /** The error matching why the attempt was cancelled (`TimeoutError` or `AbortError`). */
  public reasonError(): TimeoutError | AbortError {
    if (this.timedOut) return new TimeoutError(this.timeoutMs)
    return new AbortError('The request was aborted', { cause: this.callerSignal?.reason })
  }

  /** Stops the time limit (the caller's signal stays linked, so it can still cancel a body stream). */
  public stopTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
  }

  /** Stops the time limit and unlinks the caller's signal. */
  public dispose(): void {
    this.stopTimer()
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort)
  }

  /**
   * Settles with the promise, or rejects with the cancellation error as soon as the attempt is
   * cancelled, even if the promise ignores the signal (an in-process `fetch` handler may).
   */
  public race<T>(promise: Promise<T>): Promise<T> {
    const signal = this.controller.signal
    if (signal.aborted) {
      promise.catch(() => undefined)
      return Promise.reject(this.reasonError())
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(this.reasonError())
      signal.addEventListener('abort', onAbort, { once: true })
      promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort)
          resolve(value)
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort)
          reject(signal.aborted ? this.reasonError() : error)
        },
      )
    })
  }
}

/**
 * Waits `ms` milliseconds, or rejects with `AbortError` as soon as the signal aborts.
 *
 * @example
 * ```ts
 * await sleep(200, controller.signal)
 * ```
 */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortError('The request was aborted', { cause: signal.reason }))
      return
    }
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(new AbortError('The request was aborted', { cause: signal?.reason }))
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * A copy of a response whose body stream fails with `AbortError` as soon as the signal aborts, whatever
 * the `fetch` that produced it (an in-process handler does not tie its bodies to the request's signal).
 *
 * @example
 * ```ts
 * const response = abortableBody(await fetch(url), controller.signal)
 * controller.abort() // reading response.body now rejects with AbortError
 * ```
 */
export function abortableBody(response: Response, signal: AbortSignal | undefined): Response {
  if (!signal || !response.body) return response
  const reader = response.body.getReader()
  let onAbort: (() => void) | undefined
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      onAbort = () => {
        controller.error(new AbortError('The request was aborted', { cause: signal.reason }))
        reader.cancel(signal.reason).catch(() => undefined)
      }
      if (signal.aborted) onAbort()
      else signal.addEventListener('abort', onAbort, { once: true })
    },
    async pull(controller) {
      const next = await reader.read()
      if (next.done) {
        if (onAbort) signal.removeEventListener('abort', onAbort)
        controller.close()
      } else {
        controller.enqueue(next.value)
      }
    },
    cancel(reason) {
      if (onAbort) signal.removeEventListener('abort', onAbort)
      return reader.cancel(reason)
    },
  })
  const wrapped = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
  Object.defineProperty(wrapped, 'url', { value: response.url })
  return wrapped
}
