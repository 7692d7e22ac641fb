import { createHash, type Hash } from 'node:crypto'

/**
 * Bytes a {@link TrailingHash} may hold back unhashed: the tail of an upload hashed while its fsync runs. One
 * megabyte is hashed in about a millisecond here, about what the fsync of that megabyte takes (decision 1232).
 */
export const TRAILING_HASH_BYTES = 1024 * 1024

/**
 * A sha256 that trails the bytes it is given by at most `trailBytes`: `update` only queues a chunk until more than
 * that is queued, then hashes the oldest ones (given the expected total, it hashes at once every chunk before the
 * last `trailBytes`); `digestHex` hashes what is left. A writer that streams to the disk
 * calls `digestHex` after starting the fsync, so the last megabyte is hashed while the disk flushes instead of
 * while the body is read (for a 1 MB upload: all of it). The digest is the same as hashing every chunk at once.
 *
 * A chunk must not be changed after it was given (it is hashed later): the same rule as the disk writer's.
 *
 * @example
 * ```ts
 * const hash = new TrailingHash()
 * for await (const chunk of body) hash.update(chunk)
 * const syncing = handle.sync()
 * const sha256 = hash.digestHex() // in the fsync's shadow
 * await syncing
 * ```
 */
export class TrailingHash {
  private readonly hash: Hash = createHash('sha256')
  private queued: Uint8Array[] = []
  private queuedBytes = 0
  private givenBytes = 0

  /**
   * @param trailBytes how many bytes may wait unhashed
   * @param expectedBytes the total when known (an upload's declared size): chunks that end before the last
   *   `trailBytes` of it are hashed at once, as they come, so only the tail waits and a large upload hashes as before
   */
  constructor(
    private readonly trailBytes: number = TRAILING_HASH_BYTES,
    private readonly expectedBytes?: number,
  ) {}

  /**
   * Gives the next chunk; hashes the oldest queued chunks once more than `trailBytes` wait.
   *
   * @example
   * ```ts
   * hash.update(chunk)
   * ```
   */
  update(chunk: Uint8Array): void {
    this.givenBytes += chunk.byteLength
    // Known to be before the tail (nothing is queued yet then, so the order holds).
    if (this.expectedBytes !== undefined && this.givenBytes <= this.expectedBytes - this.trailBytes) {
      this.hash.update(chunk)
      return
    }
    this.queued.push(chunk)
    this.queuedBytes += chunk.byteLength
    if (this.queuedBytes <= this.trailBytes) return
    let hashed = 0
    while (this.queuedBytes > this.trailBytes) {
      const oldest = this.queued[hashed++]!
      this.hash.update(oldest)
      this.queuedBytes -= oldest.byteLength
    }
    this.queued = this.queued.slice(hashed)
  }

  /**
   * Hashes what is still queued and returns the sha256 of every byte given, in hex. Call it once.
   *
   * @example
   * ```ts
   * const sha256 = hash.digestHex()
   * ```
   */
  digestHex(): string {
    for (const chunk of this.queued) this.hash.update(chunk)
    this.queued = []
    this.queuedBytes = 0
    return this.hash.digest('hex')
  }
}
