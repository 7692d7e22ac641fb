import type { BlobFileHandle } from './local-folder-store.js'

/**
 * Bytes queued or being written past which {@link OverlappedWriter.push} asks its caller to wait: enough to keep
 * the disk busy while the next chunks arrive, small enough to keep memory bounded (a 1 GB upload holds at most
 * this much besides what the socket buffers).
 */
export const OVERLAPPED_WRITE_BACKLOG_BYTES = 4 * 1024 * 1024

/**
 * Writes chunks to a file in order, without making the producer wait for each write: a chunk pushed while a write
 * is in flight joins a queue, and the queue goes out in one batch (one `writev` when the handle has it, else one
 * `write` per chunk) as soon as that write returns. The caller hashes and reads the next chunk meanwhile, so the
 * disk (libuv's threads) and the JavaScript thread work at the same time. The first failure is kept and
 * thrown by the next `push` or by `drain`; nothing is written after it.
 *
 * A chunk must not be changed after it was pushed (the writer holds it until its write returns).
 *
 * @example
 * ```ts
 * const writer = new OverlappedWriter(handle)
 * for await (const chunk of body) {
 *   const backlog = writer.push(chunk)
 *   hash.update(chunk)
 *   if (backlog) await backlog
 * }
 * await writer.drain() // every byte written (not yet fsynced)
 * ```
 */
export class OverlappedWriter {
  private queue: Uint8Array[] = []
  /** Bytes pushed and not yet written (queued or in flight). */
  private unwritten = 0
  private running: Promise<void> | undefined
  private failure: { error: unknown } | undefined
  /** The open file, once known; until then, its opening. */
  private handle: BlobFileHandle | undefined
  private opening: Promise<BlobFileHandle> | undefined

  /**
   * @param handle the file to write, or the promise of its opening: chunks pushed before it is open wait in the
   *   queue (the file is opened while the first chunks arrive); a failed open is the writer's first failure
   * @param backlogBytes unwritten bytes past which `push` asks its caller to wait
   */
  constructor(
    handle: BlobFileHandle | Promise<BlobFileHandle>,
    private readonly backlogBytes: number = OVERLAPPED_WRITE_BACKLOG_BYTES,
  ) {
    if (handle instanceof Promise) this.opening = handle
    else this.handle = handle
  }

  /**
   * Queues a chunk for writing. Returns a promise when more than the backlog is unwritten (await it before pushing
   * more), else `undefined`. Throws the error of an earlier failed write.
   *
   * @example
   * ```ts
   * const backlog = writer.push(chunk)
   * if (backlog) await backlog
   * ```
   */
  push(chunk: Uint8Array): Promise<void> | undefined {
    if (this.failure) throw this.failure.error
    if (chunk.byteLength === 0) return undefined
    this.queue.push(chunk)
    this.unwritten += chunk.byteLength
    this.running ??= this.run()
    return this.unwritten > this.backlogBytes ? this.running.then(() => this.rethrow()) : undefined
  }

  /**
   * Waits until every pushed chunk is written; throws the first write failure.
   *
   * @example
   * ```ts
   * await writer.drain()
   * await handle.sync()
   * ```
   */
  async drain(): Promise<void> {
    while (this.running) await this.running
    this.rethrow()
  }

  /**
   * Waits until no write is in flight, ignoring failures: call it before closing the handle on an error path.
   *
   * @example
   * ```ts
   * await writer.settle()
   * await handle.close()
   * ```
   */
  async settle(): Promise<void> {
    this.queue = []
    while (this.running) await this.running
  }

  private rethrow(): void {
    if (this.failure) throw this.failure.error
  }

  private async run(): Promise<void> {
    try {
      // A handle given open starts its first write in the same tick as the push.
      const handle = (this.handle ??= await this.opening!)
      while (this.queue.length > 0 && !this.failure) {
        const batch = this.queue
        this.queue = []
        const bytes = await this.writeAll(handle, batch)
        this.unwritten -= bytes
      }
    } catch (error) {
      this.failure = { error }
      this.queue = []
    } finally {
      this.running = undefined
    }
  }

  /** Writes a batch completely (a short write continues where it stopped); returns its byte count. */
  private async writeAll(handle: BlobFileHandle, batch: Uint8Array[]): Promise<number> {
    let total = 0
    for (const chunk of batch) total += chunk.byteLength
    if (batch.length > 1 && handle.writev) {
      let written = (await handle.writev(batch)).bytesWritten
      if (written === total) return total
      // A short vectored write: finish chunk by chunk from where it stopped.
      for (const chunk of batch) {
        if (written >= chunk.byteLength) {
          written -= chunk.byteLength
          continue
        }
        await this.writeChunk(handle, chunk, written)
        written = 0
      }
      return total
    }
    for (const chunk of batch) await this.writeChunk(handle, chunk, 0)
    return total
  }

  private async writeChunk(handle: BlobFileHandle, chunk: Uint8Array, from: number): Promise<void> {
    let offset = from
    while (offset < chunk.byteLength) {
      const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset)
      offset += bytesWritten
    }
  }
}
