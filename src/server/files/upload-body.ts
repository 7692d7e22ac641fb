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
