/**
 * What a write produced: the internal blob id (never derived from a user's key), its size and sha256.
 */
export interface WrittenBlob {
  blobId: string
  size: number
  /** Lowercase hex sha256 of the content. */
  sha256: string
}

/** Options of {@link BlobStore.write}. */
export interface BlobWriteOptions {
  /**
   * Exact number of bytes the stream must carry. More aborts the write as soon as the excess arrives;
   * fewer fails it at the end.
   *
   * @example
   * ```ts
   * await blobs.write(body, { expectedBytes: 5 })
   * ```
   */
  expectedBytes?: number
  /**
   * Hard ceiling in bytes, checked while streaming (default: 1 GB).
   *
   * @example
   * ```ts
   * await blobs.write(body, { maxBytes: 1024 })
   * ```
   */
  maxBytes?: number
}

/** An inclusive byte range `[start, end]`. */
export interface ByteRange {
  start: number
  end: number
}

/** An opened blob: its size and a stream of its bytes (or of the requested range). */
export interface OpenedBlob {
  size: number
  stream: ReadableStream<Uint8Array>
}

/** What {@link BlobStore.sweep} removed. */
export interface SweepReport {
  temporaryFiles: number
  orphans: number
}

/**
 * The content storage port: a local folder today, S3-compatible storage later.
 *
 * @example
 * ```ts
 * const blobs: BlobStore = createLocalFolderBlobStore({ root: './.botshelf/content' })
 * const { blobId } = await blobs.write(request.body!, { expectedBytes: 5 })
 * const { stream } = await blobs.read(blobId)
 * ```
 */
export interface BlobStore {
  /** Streams content into a new blob, atomically: either the whole blob exists afterwards, or nothing does. */
  write(source: AsyncIterable<Uint8Array>, options?: BlobWriteOptions): Promise<WrittenBlob>
  /** Opens a blob for reading, optionally one inclusive byte range. The stream keeps working if the blob is deleted meanwhile. */
  read(blobId: string, range?: ByteRange): Promise<OpenedBlob>
  /** Size of a blob, or `undefined` when it does not exist. */
  stat(blobId: string): Promise<{ size: number } | undefined>
  /** Deletes a blob; deleting a missing blob is not an error. */
  delete(blobId: string): Promise<void>
  /**
   * Removes leftover temporary files and blobs that `isReferenced` does not know. Run at start; with
   * `olderThan` (the start time) it leaves alone files written since, so uploads that began meanwhile are safe.
   */
  sweep(isReferenced: (blobId: string) => boolean | Promise<boolean>, options?: { olderThan?: Date }): Promise<SweepReport>
}
