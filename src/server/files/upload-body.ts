import type { Readable } from 'node:stream'
/**
 * The request body of an upload stopped before its end because reading it failed: the client closed the
 * connection (or, in process, the body stream errored). Raised by {@link uploadBody}, so the upload route can tell
 * a client that went away from a failure of the server's own disk, which stays a 500.
 *
 * @example
 * ```ts
 * try { await blobs.write(uploadBody(request)) } catch (e) { if (e instanceof UploadAbortedError) console.log(e.bytesReceived) }
 * ```
 */
export class UploadAbortedError extends Error {
  override readonly name = 'UploadAbortedError'
  /** Stable code, safe to branch on. */
  readonly code = 'UPLOAD_ABORTED'
  constructor(
    readonly bytesReceived: number,
    cause: unknown,
  ) {
    super(`the client stopped sending the upload after ${bytesReceived} bytes: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
  }
}

/** The socket streams of requests that came through `createServer`, by their `Request` (see {@link attachNodeBody}). */
const nodeBodies = new WeakMap<Request, Readable>()

/**
 * Remembers the node:http stream a `Request` was made from, so {@link uploadBody} can read an upload straight from
 * the socket instead of through the two web-stream layers of the `Request` body (`Readable.toWeb`, then undici's
 * body). Called by `createServer` for the requests it receives; in-process `app.fetch` calls read the `Request`.
 *
 * @example
 * ```ts
 * attachNodeBody(request, incoming)
 * ```
 */
export function attachNodeBody(request: Request, incoming: Readable): void {
  nodeBodies.set(request, incoming)
}

/** The node stream behind `request`, if nothing has read from it yet. */
function untouchedNodeBody(request: Request): Readable | undefined {
  const incoming = nodeBodies.get(request)
  if (!incoming || incoming.readableDidRead || incoming.listenerCount('data') > 0 || incoming.destroyed) return undefined
  return incoming
}

/**
 * The body of an upload request as an async iterable of chunks, counting the bytes; an error while reading it
 * becomes an {@link UploadAbortedError}. Errors raised by the consumer (the blob store) are not touched; when the
 * consumer stops early the rest of the body is cancelled.
 *
 * @example
 * ```ts
 * const written = await blobs.write(uploadBody(c.req.raw), { expectedBytes: file.declaredSize })
 * ```
 */
export async function* uploadBody(request: Request): AsyncGenerator<Uint8Array, void, undefined> {
  const incoming = untouchedNodeBody(request)
  if (incoming) {
    yield* socketBody(incoming)
    return
  }
  if (request.body === null) return
  const reader = request.body.getReader()
  let bytesReceived = 0
  let finished = false
  try {
    while (true) {
      let next: ReadableStreamReadResult<Uint8Array>
      try {
        next = await reader.read()
      } catch (error) {
        throw new UploadAbortedError(bytesReceived, error)
      }
      if (next.done) {
        finished = true
        return
      }
      bytesReceived += next.value.byteLength
      yield next.value
    }
  } finally {
    // The consumer stopped early (size limit): cancel the rest, as a plain `for await` over the stream would.
    if (!finished) await reader.cancel().catch(() => undefined)
    reader.releaseLock()
  }
}

/** {@link uploadBody} over the node:http stream itself: the same counting, errors and early stop. */
async function* socketBody(incoming: Readable): AsyncGenerator<Uint8Array, void, undefined> {
  const chunks = incoming[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  let bytesReceived = 0
  let finished = false
  try {
    while (true) {
      let next: IteratorResult<Buffer>
      try {
        next = await chunks.next()
      } catch (error) {
        throw new UploadAbortedError(bytesReceived, error)
      }
      if (next.done) {
        finished = true
        return
      }
      bytesReceived += next.value.byteLength
      yield next.value
    }
  } finally {
    // The consumer stopped early (size limit): the rest is dropped, as cancelling the web stream does.
    if (!finished) await chunks.return?.().catch(() => undefined)
  }
}
