import { UploadFileError } from '../errors/client-errors.js'

/**
 * What `uploadFile` accepts as content: text (sent as UTF-8), bytes (`Uint8Array`, Node `Buffer`,
 * `ArrayBuffer`), a `Blob`/`File`, a web `ReadableStream`, or any async iterable of chunks (a Node
 * `Readable` is one).
 *
 * @example
 * ```ts
 * await client.uploadFile({ key: 'a.txt', content: 'hello' })
 * await client.uploadFile({ key: 'big.bin', content: fs.createReadStream('big.bin'), size: stat.size })
 * ```
 */
export type UploadContent =
  | string
  | Uint8Array
  | ArrayBuffer
  | Blob
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>

/** Content ready to PUT: its byte size and a body `fetch` accepts. */
export interface PreparedUploadBody {
  size: number
  body: Uint8Array | Blob | ReadableStream<Uint8Array>
  /** False for a stream: it can be sent only once, so the PUT is never retried. */
  replayable: boolean
  /**
   * The length error a streamed body raised, if any. The receiving side may report it only vaguely
   * (an in-process server sees a failed body read), so the uploader asks for it directly.
   */
  lengthError?: () => UploadFileError | undefined
}

const encoder = new TextEncoder()

function toBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk
  if (typeof chunk === 'string') return encoder.encode(chunk)
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk)
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)
  throw new UploadFileError(`content: expected chunks of bytes or strings, received ${typeof chunk}`)
}

function isReadableStream(value: unknown): value is ReadableStream<Uint8Array> {
  return typeof ReadableStream !== 'undefined' && value instanceof ReadableStream
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
}

/** A web stream over any async iterable of chunks (a Node Readable), pulled only as fast as it is sent. */
function streamFromIterable(iterable: AsyncIterable<unknown>): ReadableStream<Uint8Array> {
  const iterator = iterable[Symbol.asyncIterator]()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next()
      if (next.done) controller.close()
      else controller.enqueue(toBytes(next.value))
    },
    async cancel(reason) {
      await iterator.return?.(reason)
    },
  })
}

/**
 * Passes the chunks through while counting them, and fails the stream if it carries more or fewer
 * bytes than declared, so a wrong `size` never produces a silently truncated file.
 */
function enforceLength(stream: ReadableStream<Uint8Array>, expected: number): { body: ReadableStream<Uint8Array>; lengthError: () => UploadFileError | undefined } {
  let received = 0
  let failure: UploadFileError | undefined
  const body = stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const bytes = toBytes(chunk)
        received += bytes.byteLength
        if (received > expected) {
          failure = new UploadFileError(`content: expected ${expected} bytes (the given size), received more`)
          controller.error(failure)
          return
        }
        controller.enqueue(bytes)
      },
      flush(controller) {
        if (received !== expected) {
          failure = new UploadFileError(`content: expected ${expected} bytes (the given size), received ${received}`)
          controller.error(failure)
        }
      },
    }),
  )
  return { body, lengthError: () => failure }
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  let total = 0
  const reader = stream.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    const bytes = toBytes(value)
    chunks.push(bytes)
    total += bytes.byteLength
  }
  const all = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    all.set(chunk, offset)
    offset += chunk.byteLength
  }
  return all
}

function checkDeclaredSize(declared: number | undefined, actual: number): void {
  if (declared !== undefined && declared !== actual) {
    throw new UploadFileError(`size: expected ${actual} (the byte length of the content), received ${declared}`)
  }
}

/**
 * Turns upload content into a body and its size. Bytes, text and Blobs are used as they are.
 * Streams are streamed through untouched when `size` is given (their length is then checked
 * while sending); without `size` they are read into memory first, because the size must be
 * declared to `upsertFile` before the bytes are sent.
 *
 * @example
 * ```ts
 * await prepareUploadBody('héllo') // { size: 6, body: Uint8Array, replayable: true }
 * await prepareUploadBody(nodeReadable, 5_000_000) // { size: 5000000, body: ReadableStream, replayable: false }
 * ```
 */
export async function prepareUploadBody(content: UploadContent, declaredSize?: number): Promise<PreparedUploadBody> {
  if (declaredSize !== undefined && (!Number.isSafeInteger(declaredSize) || declaredSize < 0)) {
    throw new UploadFileError(`size: expected a whole number of bytes >= 0, received ${String(declaredSize)}`)
  }
  if (typeof content === 'string' || content instanceof Uint8Array || content instanceof ArrayBuffer || ArrayBuffer.isView(content)) {
    const bytes = toBytes(content)
    checkDeclaredSize(declaredSize, bytes.byteLength)
    return { size: bytes.byteLength, body: bytes, replayable: true }
  }
  if (typeof Blob !== 'undefined' && content instanceof Blob) {
    checkDeclaredSize(declaredSize, content.size)
    return { size: content.size, body: content, replayable: true }
  }
  let stream: ReadableStream<Uint8Array>
  if (isReadableStream(content)) stream = content
  else if (isAsyncIterable(content)) stream = streamFromIterable(content)
  else {
    throw new UploadFileError(
      `content: expected a string, bytes, a Blob, a ReadableStream or an async iterable, received ${content === null ? 'null' : typeof content}`,
    )
  }
  if (declaredSize !== undefined) {
    const checked = enforceLength(stream, declaredSize)
    return { size: declaredSize, body: checked.body, replayable: false, lengthError: checked.lengthError }
  }
  const bytes = await readAll(stream)
  return { size: bytes.byteLength, body: bytes, replayable: true }
}
