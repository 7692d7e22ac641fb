import { BotshelfError } from 'botshelf/api'
import { untouchedNodeBody } from '../http/node-body.js'
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
export class UploadAbortedError extends BotshelfError {
  override readonly name: string = 'UploadAbortedError'
  /** Stable code, safe to branch on. */
  declare readonly code: 'UPLOAD_ABORTED'
  constructor(
    readonly bytesReceived: number,
    cause: unknown,
  ) {
    // Never answered: the client is gone (the content route records the upload as failed).
    super('InvalidPayload', 'UPLOAD_ABORTED', `the client stopped sending the upload after ${bytesReceived} bytes: ${cause instanceof Error ? cause.message : String(cause)}`, undefined, { cause })
  }
}

// The socket stream behind a request (decision 1212) now has its home in the HTTP layer; re-exported for the upload's callers.
export { attachNodeBody } from '../http/node-body.js'

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
    // The node:http stream itself: the same bytes without two web-stream layers.
    const chunks = incoming[Symbol.asyncIterator]() as AsyncIterator<Buffer>
    // The consumer stopped early (size limit): the rest is dropped, as cancelling the web stream does.
    yield* countedChunks(() => chunks.next(), async () => void (await chunks.return?.()))
    return
  }
  if (request.body === null) return
  const reader = request.body.getReader()
  try {
    // The consumer stopped early (size limit): cancel the rest, as a plain `for await` over the stream would.
    yield* countedChunks(() => reader.read(), () => reader.cancel())
  } finally {
    reader.releaseLock()
  }
}

/**
 * Chunks from `read` until it is done, counting the bytes: a read that fails becomes an {@link UploadAbortedError}
 * with the count so far; when the consumer stops early, `stopEarly` drops the rest.
 */
async function* countedChunks(
  read: () => Promise<{ done?: boolean; value?: Uint8Array }>,
  stopEarly: () => Promise<void>,
): AsyncGenerator<Uint8Array, void, undefined> {
  let bytesReceived = 0
  let finished = false
  try {
    while (true) {
      let next: { done?: boolean; value?: Uint8Array }
      try {
        next = await read()
      } catch (error) {
        throw new UploadAbortedError(bytesReceived, error)
      }
      if (next.done || next.value === undefined) {
        finished = true
        return
      }
      bytesReceived += next.value.byteLength
      yield next.value
    }
  } finally {
    if (!finished) await stopEarly().catch(() => undefined)
  }
}
