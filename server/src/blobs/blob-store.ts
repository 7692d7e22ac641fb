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

/**
 * The question {@link BlobStore.sweep} asks about a batch of blob ids: which of them some file references.
 *
 * @example
 * ```ts
 * const referenced: BlobsReferenced = (blobIds) => backend.files.blobsInUse(blobIds)
 * ```
 */
export type BlobsReferenced = (blobIds: ReadonlyArray<string>) => ReadonlySet<string> | Promise<ReadonlySet<string>>

/** What {@link BlobStore.sweep} removed. */
export interface SweepReport {
  /** Unfinished writes removed: temporary files (local folder), aborted multipart uploads (S3). */
  temporaryFiles: number
  /** Blobs no file referenced. */
  orphans: number
}

/** What a presigned read URL answers with, and for how long it works. Options of {@link BlobStore.presignedReadUrl}. */
export interface PresignedReadOptions {
  /**
   * The signing instant (the service's clock).
   *
   * @example
   * ```ts
   * blobs.presignedReadUrl?.(blobId, { now: new Date(), expiresInSeconds: 900, contentType: 'text/plain', contentDisposition: 'inline' })
   * ```
   */
  now: Date
  /**
   * Lifetime of the URL in seconds (the storage may cap it: seven days for S3).
   *
   * @example
   * ```ts
   * blobs.presignedReadUrl?.(blobId, { now, expiresInSeconds: 60, contentType, contentDisposition })
   * ```
   */
  expiresInSeconds: number
  /**
   * The `Content-Type` the storage answers with.
   *
   * @example
   * ```ts
   * blobs.presignedReadUrl?.(blobId, { now, expiresInSeconds, contentType: 'application/pdf', contentDisposition })
   * ```
   */
  contentType: string
  /**
   * The `Content-Disposition` the storage answers with (inline or attachment, with the file name).
   *
   * @example
   * ```ts
   * blobs.presignedReadUrl?.(blobId, { now, expiresInSeconds, contentType, contentDisposition: 'attachment; filename="report.pdf"' })
   * ```
   */
  contentDisposition: string
}

/**
 * The content storage port: a local folder (embedded mode) or S3-compatible object storage.
 *
 * @example
 * ```ts
 * const blobs: BlobStore = createLocalFolderBlobStore({ root: './.botshelf/content' })
 * const { blobId } = await blobs.write(request.body!, { expectedBytes: 5 })
 * const { stream } = await blobs.read(blobId)
 * ```
 */
export interface BlobStore {
  /**
   * Streams content into a new blob, atomically: either the whole blob exists afterwards, or nothing does. The store
   * may still hold a chunk after taking the next one (its disk write overlaps the reading), so a source must not
   * change a chunk once it has yielded it.
   */
  write(source: AsyncIterable<Uint8Array>, options?: BlobWriteOptions): Promise<WrittenBlob>
  /** Opens a blob for reading, optionally one inclusive byte range. The stream keeps working if the blob is deleted meanwhile. */
  read(blobId: string, range?: ByteRange): Promise<OpenedBlob>
  /** Size of a blob, or `undefined` when it does not exist. */
  stat(blobId: string): Promise<{ size: number } | undefined>
  /** Deletes a blob; deleting a missing blob is not an error. */
  delete(blobId: string): Promise<void>
  /**
   * Removes leftover temporary files and blobs that `referenced` does not name. Run at start; with `olderThan` (the
   * start time) it leaves alone files written since, so uploads that began meanwhile are safe. `referenced` is asked
   * about a batch of blob ids at a time (a folder's read, a listing's page) and answers those some file uses: one
   * query a batch, not one a blob.
   */
  sweep(referenced: BlobsReferenced, options?: { olderThan?: Date }): Promise<SweepReport>
  /**
   * Optional: a URL of the storage itself that serves the blob until it expires, so a download skips the
   * service. Present only when the operator turned it on (S3: `presignDownloads`); `undefined` when no URL can
   * be signed right now. Without it, every content URL is served by the service.
   */
  presignedReadUrl?(blobId: string, options: PresignedReadOptions): string | undefined
}
