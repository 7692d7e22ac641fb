import type { Readable } from 'node:stream'

/**
 * The node:http streams behind the `Request`s `createServer` makes, so a body can be read from the socket stream
 * itself instead of through the web-stream layers of the `Request` body (`Readable.toWeb`, then undici's body):
 * uploads (`uploadBody`) and JSON bodies under the body deadline (`readBodyBytes`, decision 1471) do.
 * In-process `app.fetch` calls have none and read the `Request`.
 */
const nodeBodies = new WeakMap<Request, Readable>()

/**
 * Remembers the node:http stream a `Request` was made from. Called by `createServer` for every request that may
 * carry a body.
 *
 * @example
 * ```ts
 * attachNodeBody(request, incoming)
 * ```
 */
export function attachNodeBody(request: Request, incoming: Readable): void {
  nodeBodies.set(request, incoming)
}

/**
 * The node stream behind `request`, if it has one and nothing has read from it yet.
 *
 * @example
 * ```ts
 * const incoming = untouchedNodeBody(c.req.raw) // undefined for app.fetch calls and bodies already read
 * ```
 */
export function untouchedNodeBody(request: Request): Readable | undefined {
  const incoming = nodeBodies.get(request)
  if (!incoming || incoming.readableDidRead || incoming.listenerCount('data') > 0 || incoming.destroyed) return undefined
  return incoming
}

/** What the body deadline reads of a body it guards, whichever way it is read. */
export interface BodyProgress {
  /** Bytes received so far. */
  readonly received: number
  /** Whether the whole body arrived. */
  readonly complete: boolean
  /** Whether the deadline passed first. */
  readonly timedOut: boolean
}

/** How long an answer given before its body was read waits for the rest of that body. */
export const DROP_REST_TIMEOUT_MS = 5_000

/**
 * A request body read straight from its node:http stream under a deadline: {@link readAll} gathers it, failing with
 * `onTimeout()`'s error once `timeoutMs` passed since the guard was made (the stream is paused, never destroyed, so
 * the answer can still be written). Whole-body reads only: the guard is used for bodies of a declared length, which
 * the HTTP parser never lets grow past it.
 *
 * @example
 * ```ts
 * const guard = new GuardedNodeBody(incoming, 60_000, () => new BodyTimeoutError('too slow'))
 * const bytes = await guard.readAll()
 * ```
 */
export class GuardedNodeBody implements BodyProgress {
  received = 0
  complete = false
  timedOut = false
  /** Whether a reader started reading (so the body is no longer "unread"). */
  started = false
  private readonly timer: ReturnType<typeof setTimeout>
  private failPending: ((error: unknown) => void) | undefined

  constructor(
    private readonly incoming: Readable,
    timeoutMs: number,
    private readonly onTimeout: () => Error,
  ) {
    this.timer = setTimeout(() => {
      this.timedOut = true
      this.failPending?.(this.onTimeout())
    }, timeoutMs)
  }

  /**
   * The whole body. Rejects with the deadline's error, the stream's error, or an `aborted` error when the connection
   * closed before the body ended.
   *
   * @example
   * ```ts
   * const bytes = await guard.readAll()
   * ```
   */
  readAll(): Promise<Buffer> {
    this.started = true
    const incoming = this.incoming
    return new Promise<Buffer>((resolve, reject) => {
      if (this.timedOut) return reject(this.onTimeout())
      const chunks: Buffer[] = []
      const finish = (error?: unknown): void => {
        incoming.off('data', onData)
        incoming.off('end', onEnd)
        incoming.off('error', onError)
        incoming.off('close', onClose)
        this.failPending = undefined
        if (error === undefined) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.received))
        else reject(error)
      }
      const onData = (chunk: Buffer): void => {
        this.received += chunk.byteLength
        chunks.push(chunk)
      }
      const onEnd = (): void => {
        this.complete = true
        this.stop()
        finish()
      }
      const onError = (error: unknown): void => finish(error)
      const onClose = (): void => {
        if (!this.complete) finish(new Error('aborted'))
      }
      this.failPending = (error) => {
        // Paused, not destroyed: destroying the stream would close the socket before the 408 is written.
        incoming.pause()
        finish(error)
      }
      incoming.on('data', onData)
      incoming.once('end', onEnd)
      incoming.once('error', onError)
      incoming.once('close', onClose)
    })
  }

  /**
   * Reads and drops a body nobody read, until it ends, passes `maxBytes` or takes {@link DROP_REST_TIMEOUT_MS}, so the
   * client can finish sending and read the answer on a connection that stays usable; what is left stays unread (the
   * server then closes the connection).
   *
   * @example
   * ```ts
   * if (!guard.started) await guard.dropRest(FILES_JSON_LIMIT)
   * ```
   */
  dropRest(maxBytes: number): Promise<void> {
    const incoming = this.incoming
    if (this.complete || incoming.destroyed || (incoming as Readable & { complete?: boolean }).complete === true) return Promise.resolve()
    return new Promise<void>((resolve) => {
      let dropped = 0
      const done = (): void => {
        clearTimeout(timer)
        incoming.off('data', onData)
        incoming.off('end', done)
        incoming.off('error', done)
        incoming.off('close', done)
        resolve()
      }
      const onData = (chunk: Buffer): void => {
        dropped += chunk.byteLength
        if (dropped > maxBytes) {
          incoming.pause()
          done()
        }
      }
      const timer = setTimeout(() => {
        incoming.pause()
        done()
      }, DROP_REST_TIMEOUT_MS)
      incoming.on('data', onData)
      incoming.once('end', done)
      incoming.once('error', done)
      incoming.once('close', done)
    })
  }

  /** Ends the deadline (the body arrived, or the request is over). */
  stop(): void {
    clearTimeout(this.timer)
  }
}

/** The guarded node bodies of requests under the body deadline. */
const guardedBodies = new WeakMap<Request, GuardedNodeBody>()

/**
 * Hands `request`'s body reader (`readBodyBytes`) the guard to read its body through.
 *
 * @example
 * ```ts
 * guardBody(c.req.raw, new GuardedNodeBody(incoming, 60_000, () => new BodyTimeoutError('too slow')))
 * ```
 */
export function guardBody(request: Request, guard: GuardedNodeBody): void {
  guardedBodies.set(request, guard)
}

/**
 * The guard of `request`'s body, when the body deadline reads it from the node stream; `undefined` otherwise.
 *
 * @example
 * ```ts
 * const guard = guardedBody(request)
 * const bytes = guard ? await guard.readAll() : await readThroughWebStream(request)
 * ```
 */
export function guardedBody(request: Request): GuardedNodeBody | undefined {
  return guardedBodies.get(request)
}
