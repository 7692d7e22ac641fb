import { Buffer } from 'node:buffer'
import { Readable, pipeline } from 'node:stream'
import { createGunzip } from 'node:zlib'
import { importFileError } from './transfer-error.js'

/** Largest piece of content handed to a parser at once, so no single step holds the event loop for long. */
export const CONTENT_SLICE_BYTES = 64 * 1024

/** How often progress is reported, in bytes of input. */
const PROGRESS_STEP_BYTES = 64 * 1024

const GZIP_MAGIC = [0x1f, 0x8b] as const

function asBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
}

/** Reports input consumed: at most every {@link PROGRESS_STEP_BYTES}, and once at the end with the total. */
class ProgressReporter {
  private consumed = 0
  private reported = 0

  constructor(private readonly onProgress: ((consumed: number) => void) | undefined) {}

  advance(bytes: number): void {
    this.consumed += bytes
    if (this.consumed - this.reported >= PROGRESS_STEP_BYTES) this.report()
  }

  finish(): void {
    if (this.consumed !== this.reported || this.consumed === 0) this.report()
  }

  private report(): void {
    this.reported = this.consumed
    this.onProgress?.(this.consumed)
  }
}

/**
 * The options of {@link contentBytes}.
 *
 * @example
 * ```ts
 * const options: ContentBytesOptions = { maxBytes: 100 * 1024 * 1024, onProgress: (n) => console.log(n) }
 * ```
 */
export interface ContentBytesOptions {
  /** Largest file, and largest decompressed content, in bytes, e.g. `{ maxBytes: 100 * 1024 * 1024 }`. */
  maxBytes: number
  /** Called with the bytes of the file consumed so far, e.g. `onProgress: (n) => job.progress(n / size)`. */
  onProgress?: (consumed: number) => void
  /**
   * Most decompressed bytes per gzip byte read, past the first {@link RATIO_FREE_BYTES}, else `TOO_COMPRESSED`: a
   * small gzip that expands without bound (a zip bomb) stops within a few MiB (decision 1463). Default: no limit,
   * e.g. `{ maxRatio: 100 }`.
   */
  maxRatio?: number
}

/** Decompressed bytes always allowed whatever the ratio, so that a small file of repetitive rows still imports. */
export const RATIO_FREE_BYTES = 1024 * 1024

/**
 * The content of an import file as slices of at most {@link CONTENT_SLICE_BYTES}: decompressed on the fly when it
 * starts with the gzip magic bytes `1f 8b`, the input pulled only as the slices are (a gunzip stream with
 * backpressure in between), so memory stays bounded whatever the file's size. A file, or decompressed content,
 * larger than `maxBytes` fails with `too_large`; gzip that does not decompress with `not_gzip`. Slices are views
 * of the input (or of the decompressor's output) and must not be kept by the caller past its next pull.
 *
 * @example
 * ```ts
 * for await (const slice of contentBytes(blobChunks, { maxBytes: 1 << 30 })) parser.push(slice)
 * ```
 */
export async function* contentBytes(source: AsyncIterable<Uint8Array>, options: ContentBytesOptions): AsyncGenerator<Buffer, void, undefined> {
  const progress = new ProgressReporter(options.onProgress)
  const input = source[Symbol.asyncIterator]()
  let inputDone = false
  let fileBytes = 0
  /** The next chunk of the file, checked against `maxBytes`. */
  const nextChunk = async (): Promise<Buffer | undefined> => {
    const next = await input.next()
    if (next.done) {
      inputDone = true
      return undefined
    }
    fileBytes += next.value.byteLength
    if (fileBytes > options.maxBytes) throw importFileError('TOO_LARGE', `the file is larger than ${options.maxBytes} bytes`)
    return asBuffer(next.value)
  }
  try {
    // The magic bytes may come in separate chunks.
    const head: Buffer[] = []
    let headBytes = 0
    while (headBytes < GZIP_MAGIC.length) {
      const chunk = await nextChunk()
      if (chunk === undefined) break
      head.push(chunk)
      headBytes += chunk.length
    }
    const first = head.length === 1 ? head[0]! : Buffer.concat(head)
    const gzipped = first[0] === GZIP_MAGIC[0] && first[1] === GZIP_MAGIC[1]
    const rest = async function* (): AsyncGenerator<Buffer, void, undefined> {
      if (first.length > 0) yield first
      for (;;) {
        const chunk = await nextChunk()
        if (chunk === undefined) return
        yield chunk
      }
    }
    if (!gzipped) {
      for await (const chunk of rest()) {
        for (let at = 0; at < chunk.length; at += CONTENT_SLICE_BYTES) {
          const slice = chunk.subarray(at, at + CONTENT_SLICE_BYTES)
          yield slice
          progress.advance(slice.length)
        }
      }
    } else {
      let decompressedBytes = 0
      for await (const chunk of gunzip(rest(), progress)) {
        for (let at = 0; at < chunk.length; at += CONTENT_SLICE_BYTES) {
          const slice = chunk.subarray(at, at + CONTENT_SLICE_BYTES)
          decompressedBytes += slice.length
          if (decompressedBytes > options.maxBytes) throw importFileError('TOO_LARGE', `the decompressed content is larger than ${options.maxBytes} bytes`)
          if (options.maxRatio !== undefined && decompressedBytes > RATIO_FREE_BYTES && decompressedBytes > options.maxRatio * fileBytes) {
            throw importFileError(
              'TOO_COMPRESSED',
              `the gzip content expands more than ${options.maxRatio} times (${decompressedBytes} bytes from the first ${fileBytes} bytes of the file), over the import decompression ratio limit of ${options.maxRatio} (botshelf serve --import-max-ratio)`,
            )
          }
          yield slice
        }
      }
    }
    progress.finish()
  } finally {
    // Stopped early (an error, or the consumer is done): let the source release what it holds.
    if (!inputDone) await input.return?.()
  }
}

/**
 * The compressed chunks through a streaming gunzip. The compressed input is fed in slices with backpressure, so
 * progress follows what the decompressor actually consumed; errors of the input pass through unchanged, zlib's
 * become `not_gzip`.
 */
async function* gunzip(compressed: AsyncIterable<Buffer>, progress: ProgressReporter): AsyncGenerator<Buffer, void, undefined> {
  let inputFailed = false
  let inputError: unknown
  const sliced = async function* (): AsyncGenerator<Buffer, void, undefined> {
    try {
      for await (const chunk of compressed) {
        for (let at = 0; at < chunk.length; at += CONTENT_SLICE_BYTES) {
          const slice = chunk.subarray(at, at + CONTENT_SLICE_BYTES)
          yield slice
          progress.advance(slice.length)
        }
      }
    } catch (error) {
      inputFailed = true
      inputError = error
      throw error
    }
  }
  const decompressor = createGunzip({ chunkSize: 64 * 1024 })
  // Errors reach the loop below through the decompressor, which pipeline destroys with them.
  pipeline(Readable.from(sliced(), { objectMode: false, highWaterMark: 1 }), decompressor, () => undefined)
  try {
    for await (const chunk of decompressor) yield chunk as Buffer
  } catch (error) {
    if (inputFailed) throw inputError
    throw importFileError('NOT_GZIP', `the file looks gzipped but does not decompress (${(error as Error).message})`, error)
  }
}
