import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3'
import { toBlobError } from './s3-errors.js'

/** The memory an upload may hold, and a tally of what every upload did (for tests, benches and metrics). */
export interface PartBufferAccount {
  /** Bytes of part buffers allocated right now, over every upload of the store. */
  bufferedBytes: number
  /** The most `bufferedBytes` ever reached. */
  peakBufferedBytes: number
  /** Parts sent with UploadPart. */
  partsUploaded: number
  /** Multipart uploads started. */
  multipartUploads: number
}

/** Where and how one object is uploaded. */
export interface PartUploaderTarget {
  client: S3Client
  bucket: string
  key: string
  /** Bytes per part (the last may be smaller). */
  partSize: number
  /** Parts sent at once; one more buffer fills while they travel. */
  queueSize: number
  account: PartBufferAccount
}

/**
 * Uploads one object from chunks with bounded memory: chunks are copied into part buffers of `partSize`; a full
 * buffer goes out as an UploadPart while the next fills, at most `queueSize` in flight (appending waits for a free
 * buffer), so an upload holds at most `(queueSize + 1) × partSize` bytes whatever its length. Content that fits in
 * one part is sent with one PutObject instead. The object exists only once {@link finish} completes the multipart
 * upload; {@link abort} cancels parts in flight and aborts the upload (what it cannot abort, the sweep does).
 *
 * @example
 * ```ts
 * const upload = new PartUploader({ client, bucket, key, partSize: 8 << 20, queueSize: 4, account })
 * try { for await (const chunk of body) await upload.append(chunk); await upload.finish() }
 * catch (error) { await upload.abort(); throw error }
 * ```
 */
export class PartUploader {
  private readonly free: Buffer[] = []
  private allocated = 0
  private current: Buffer | undefined
  private filled = 0
  private uploadId: string | undefined
  private nextPartNumber = 1
  private readonly completed: CompletedPart[] = []
  private readonly inFlight = new Set<Promise<void>>()
  private failure: { error: unknown } | undefined
  private readonly cancel = new AbortController()

  constructor(private readonly target: PartUploaderTarget) {}

  /** Copies a chunk into part buffers, sending each one that fills; waits while `queueSize` parts travel. */
  async append(chunk: Uint8Array): Promise<void> {
    let offset = 0
    while (offset < chunk.byteLength) {
      this.throwIfFailed()
      // A full buffer leaves only when more bytes come: content of exactly one part is still one PutObject.
      if (this.current && this.filled === this.current.byteLength) await this.sendCurrentPart()
      const buffer = this.current ?? (this.current = await this.takeBuffer())
      const copied = Math.min(chunk.byteLength - offset, buffer.byteLength - this.filled)
      buffer.set(chunk.subarray(offset, offset + copied), this.filled)
      this.filled += copied
      offset += copied
    }
  }

  /** Sends what is left and makes the object visible: one PutObject, or the last part then CompleteMultipartUpload. */
  async finish(): Promise<void> {
    this.throwIfFailed()
    const { client, bucket, key } = this.target
    if (this.uploadId === undefined) {
      const body = this.current ? this.current.subarray(0, this.filled) : Buffer.alloc(0)
      try {
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentLength: body.byteLength }), { abortSignal: this.cancel.signal })
      } catch (error) {
        throw toBlobError(error, 'PutObject')
      } finally {
        this.releaseAll()
      }
      return
    }
    if (this.filled > 0) await this.sendCurrentPart()
    await Promise.all(this.inFlight)
    this.throwIfFailed()
    this.releaseAll()
    const parts = [...this.completed].sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0))
    try {
      await client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: this.uploadId, MultipartUpload: { Parts: parts } }), {
        abortSignal: this.cancel.signal,
      })
    } catch (error) {
      throw toBlobError(error, 'CompleteMultipartUpload')
    }
  }

  /**
   * Cancels the parts in flight, waits for them to settle, then aborts the multipart upload so its parts stop
   * costing storage. Never throws: an upload it could not abort is left to the sweep of abandoned uploads.
   */
  async abort(): Promise<void> {
    this.cancel.abort()
    await Promise.allSettled(this.inFlight)
    this.releaseAll()
    if (this.uploadId === undefined) return
    const { client, bucket, key } = this.target
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: this.uploadId })).catch(() => undefined)
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error
  }

  private async takeBuffer(): Promise<Buffer> {
    const { partSize, queueSize, account } = this.target
    while (this.free.length === 0 && this.allocated >= queueSize + 1) {
      // Every buffer is travelling: wait for one part to land (in-flight promises never reject; a failed part
      // keeps its buffer and records the failure, which ends the wait).
      this.throwIfFailed()
      if (this.inFlight.size === 0) throw new Error('part uploader: every buffer is taken and none is travelling')
      await Promise.race(this.inFlight)
    }
    this.throwIfFailed()
    const reused = this.free.pop()
    if (reused) return reused
    this.allocated++
    account.bufferedBytes += partSize
    account.peakBufferedBytes = Math.max(account.peakBufferedBytes, account.bufferedBytes)
    return Buffer.allocUnsafeSlow(partSize)
  }

  private releaseAll(): void {
    this.target.account.bufferedBytes -= this.allocated * this.target.partSize
    this.allocated = 0
    this.free.length = 0
    this.current = undefined
  }

  private async startMultipart(): Promise<string> {
    const { client, bucket, key, account } = this.target
    try {
      const created = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }), { abortSignal: this.cancel.signal })
      if (!created.UploadId) throw new Error('CreateMultipartUpload answered without an UploadId')
      account.multipartUploads++
      return created.UploadId
    } catch (error) {
      throw toBlobError(error, 'CreateMultipartUpload')
    }
  }

  private async sendCurrentPart(): Promise<void> {
    const buffer = this.current
    if (!buffer) return
    const length = this.filled
    this.current = undefined
    this.filled = 0
    this.uploadId ??= await this.startMultipart()
    while (this.inFlight.size >= this.target.queueSize) {
      await Promise.race(this.inFlight)
      this.throwIfFailed()
    }
    const partNumber = this.nextPartNumber++
    const { client, bucket, key, account } = this.target
    const uploadId = this.uploadId
    const sending: Promise<void> = client
      .send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, Body: buffer.subarray(0, length), ContentLength: length }), {
        abortSignal: this.cancel.signal,
      })
      .then(
        (answer) => {
          this.completed.push({ PartNumber: partNumber, ETag: answer.ETag })
          account.partsUploaded++
          this.free.push(buffer)
        },
        (error: unknown) => {
          this.failure ??= { error: toBlobError(error, 'UploadPart') }
        },
      )
      .finally(() => this.inFlight.delete(sending))
    this.inFlight.add(sending)
  }
}
