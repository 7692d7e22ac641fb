import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env.js'
import { jsonLimitFor } from '../body.js'
import { refusalResponse } from './refusal.js'
import { formatDuration } from './timeouts.js'
import { DROP_REST_TIMEOUT_MS, GuardedNodeBody, guardBody, untouchedNodeBody, type BodyProgress } from '../node-body.js'

/** Options of `bodyDeadline`. */
export interface BodyDeadlineOptions {
  /**
   * How long the whole body may take to arrive once the request reaches the app, in ms; 0 switches the
   * deadline off.
   *
   * @example
   * ```ts
   * { timeoutMs: 60_000 }
   * ```
   */
  readonly timeoutMs: number
  /**
   * The paths whose handlers stream their body (uploads): they keep the request timeout instead.
   *
   * @example
   * ```ts
   * { streamsBody: (path) => path.startsWith('/v1/content/upload/') }
   * ```
   */
  readonly streamsBody: (path: string) => boolean
}

/**
 * The error a guarded body fails with when its deadline passes (what the body reader sees).
 *
 * @example
 * ```ts
 * try { await request.text() } catch (error) { if (error instanceof BodyTimeoutError) console.log('too slow') }
 * ```
 */
export class BodyTimeoutError extends Error {
  override readonly name = 'BodyTimeoutError'
}

function hasBody(request: Request): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return false
  const length = request.headers.get('content-length')
  if (length !== null) return length.trim() !== '0'
  return request.headers.has('transfer-encoding')
}

/** A body stream that fails with `BodyTimeoutError` when the source has not ended within `timeoutMs`. */
class GuardedBody implements BodyProgress {
  readonly stream: ReadableStream<Uint8Array>
  received = 0
  complete = false
  timedOut = false
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor(source: ReadableStream<Uint8Array>, timeoutMs: number) {
    const reader = source.getReader()
    this.stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.timer = setTimeout(() => {
          this.timedOut = true
          // The source is left as it is: cancelling it would destroy the socket before the 408 is written.
          controller.error(new BodyTimeoutError(`the body did not arrive within ${formatDuration(timeoutMs)}`))
        }, timeoutMs)
      },
      pull: async (controller) => {
        let next: ReadableStreamReadResult<Uint8Array>
        try {
          next = await reader.read()
        } catch (error) {
          if (this.timedOut) return
          this.stop()
          controller.error(error)
          return
        }
        if (this.timedOut) return
        if (next.done) {
          this.complete = true
          this.stop()
          controller.close()
          return
        }
        this.received += next.value.byteLength
        controller.enqueue(next.value)
      },
      cancel: async (reason) => {
        this.stop()
        await reader.cancel(reason)
      },
    })
  }

  stop(): void {
    clearTimeout(this.timer)
  }
}

/**
 * Bounds the time a request body may take to arrive: every request with a body, except on the paths that stream
 * theirs (uploads, which keep the request timeout), gets its body through a stream that fails once `timeoutMs`
 * has passed since the request reached the app. A request whose handler then failed with its body incomplete is
 * answered 408 with the wire error type `OperationTimeout` and `connection: close`, and a `request timed out`
 * line (`phase: 'body'`) is logged. The body is read before the handler runs (src/server/http/register-operation.ts),
 * so a slow client never holds a transaction.
 *
 * @example
 * ```ts
 * app.use('*', bodyDeadline({ timeoutMs: 60_000, streamsBody: (path) => path.startsWith('/v1/content/upload/') }))
 * ```
 */
export function bodyDeadline(options: BodyDeadlineOptions): MiddlewareHandler<AppEnv> {
  const { timeoutMs, streamsBody } = options
  return async (c, next) => {
    const original = c.req.raw
    // The path first: reading `body` builds the request's web stream, which an upload never uses (it reads the socket).
    if (timeoutMs <= 0 || streamsBody(c.req.path) || !hasBody(original)) return next()
    const declared = original.headers.get('content-length')
    // A body of a declared length that came through createServer is read from its socket stream (decision 1471): no
    // web stream, no second `Request`. Other bodies (chunked, in-process `app.fetch`) go through a guarded web stream.
    const incoming = declared !== null ? untouchedNodeBody(original) : undefined
    let progress: BodyProgress
    if (incoming) {
      const guard = new GuardedNodeBody(incoming, timeoutMs, () => new BodyTimeoutError(`the body did not arrive within ${formatDuration(timeoutMs)}`))
      guardBody(original, guard)
      progress = guard
      try {
        await next()
      } finally {
        guard.stop()
      }
      // Answered without reading the body (a 401 or 404 decided on the headers): drop the rest, as below.
      if (!guard.timedOut && !guard.complete && !guard.started && Number(declared) <= jsonLimitFor(c.req.path)) await guard.dropRest(jsonLimitFor(c.req.path))
    } else {
      if (original.body === null) return next()
      const guard = new GuardedBody(original.body, timeoutMs)
      progress = guard
      c.req.raw = new Request(original.url, {
        method: original.method,
        headers: original.headers,
        body: guard.stream,
        signal: original.signal,
        duplex: 'half',
      } as RequestInit)
      try {
        await next()
      } finally {
        guard.stop()
      }
      // Answered without reading the body (a 401 or 404 decided on the headers): read and drop the rest, within the
      // route's limit, so the client can finish sending and read the answer on a connection that stays usable.
      if (!guard.timedOut && !guard.complete && !guard.stream.locked && Number(declared ?? 0) <= jsonLimitFor(c.req.path)) {
        await dropRest(guard.stream, jsonLimitFor(c.req.path))
      }
    }
    if (progress.timedOut && !progress.complete && c.res.status >= 400) {
      const services = c.get('services')
      services.logger.log('warn', 'request timed out', {
        requestId: c.get('requestId'),
        phase: 'body',
        method: c.req.method,
        path: c.req.path,
        limitMs: timeoutMs,
        bytesReceived: progress.received,
        remoteAddress: c.env?.connection?.remoteAddress ?? null,
      })
      c.res = refusalResponse(
        {
          status: 408,
          type: 'OperationTimeout',
          message: `The request body did not arrive within ${formatDuration(timeoutMs)} (${progress.received}${declared !== null ? ` of ${declared}` : ''} bytes received); send it again`,
          metadata: { limitMs: timeoutMs, bytesReceived: progress.received },
        },
        services.now(),
      )
    }
  }
}


/**
 * Reads a body nobody read, dropping its bytes, until it ends, passes `maxBytes` or takes 5 s. It never cancels
 * the body (that would destroy the socket before the answer is written): a body left unfinished makes the server
 * answer with `Connection: close` (`closeIfBodyUnread`).
 */
async function dropRest(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<void> {
  const reader = stream.getReader()
  let received = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), DROP_REST_TIMEOUT_MS)
  })
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timeout])
      if (next === 'timeout' || next.done) return
      received += next.value.byteLength
      if (received > maxBytes) return
    }
  } catch {
    // The client went away: nothing left to drop.
  } finally {
    clearTimeout(timer)
    try {
      reader.releaseLock()
    } catch {
      // A read still pending: the lock goes with the request.
    }
  }
}
