import { createHash, randomBytes } from 'node:crypto'
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3'
import type { BlobsReferenced, BlobStore, BlobWriteOptions, ByteRange, OpenedBlob, PresignedReadOptions, SweepReport, WrittenBlob } from '../blob-store.js'
import { BlobError, BlobNotFoundError, BlobSizeMismatchError, BlobTooLargeError } from '../errors.js'
import { DEFAULT_MAX_BLOB_BYTES } from '../local-folder-store.js'
import { PartUploader, type PartBufferAccount } from './part-uploader.js'
import { storageErrorCode, storageHttpStatus, toBlobError } from './s3-errors.js'
import { s3ObjectUrl } from './s3-object-url.js'
import { quietSdkNodeWarning } from './sdk-node-warning.js'
import { MAX_PRESIGN_SECONDS, presignS3Get, type SigningCredentials } from './sigv4-presign.js'
import { systemClock, type Clock } from 'botshelf/api'

const BLOB_ID = /^blob_[0-9a-f]{32}$/
const MIB = 1024 * 1024
/** S3's smallest part (every part but the last). */
export const MIN_PART_BYTES = 5 * MIB
/** S3's largest part. */
export const MAX_PART_BYTES = 5 * 1024 * MIB

/** Credentials given directly, or a provider the store calls (and calls again before they expire). */
export type S3Credentials = SigningCredentials | (() => Promise<SigningCredentials & { expiration?: Date }>)

/** Options of {@link createS3BlobStore}. */
export interface S3BlobStoreOptions {
  /**
   * The bucket that holds the content (it must exist).
   *
   * @example
   * ```ts
   * createS3BlobStore({ bucket: 'botshelf-content' })
   * ```
   */
  bucket: string
  /**
   * Key prefix inside the bucket, `''` or ending in `/` (default `''`). Blobs live under `<prefix>blobs/`.
   *
   * @example
   * ```ts
   * createS3BlobStore({ bucket: 'shared', prefix: 'botshelf/prod/' })
   * ```
   */
  prefix?: string
  /**
   * The region the bucket lives in, which the signature names (default `us-east-1`).
   *
   * @example
   * ```ts
   * createS3BlobStore({ bucket: 'content', region: 'eu-west-3' })
   * ```
   */
  region?: string
  /**
   * The endpoint of an S3-compatible service (MinIO, Ceph, R2, ...); AWS S3 when absent.
   *
   * @example
   * ```ts
   * createS3BlobStore({ bucket: 'content', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true })
   * ```
   */
  endpoint?: string
  /**
   * Address the bucket in the path (`<endpoint>/<bucket>/<key>`) rather than in the host name (default `false`;
   * most self-hosted S3-compatible services need `true`).
   *
   * @example
   * ```ts
   * createS3BlobStore({ bucket: 'content', endpoint: 'http://minio:9000', forcePathStyle: true })
   * ```
   */
  forcePathStyle?: boolean
  /**
   * Credentials; absent, the AWS SDK's default chain (environment, shared files, SSO, container and instance
   * roles).
   *
   * @example
   * ```ts
   * createS3BlobStore({ bucket: 'content', credentials: { accessKeyId: 'AKIA...', secretAccessKey: '...' } })
   * ```
   */
  credentials?: S3Credentials
  /**
   * Bytes per uploaded part (default 8 MiB; at least 5 MiB, S3's smallest part). Content that fits in one part
   * goes up in one PutObject.
   *
   * @example
   * ```ts
   * createS3BlobStore({ bucket: 'content', partSize: 16 * 1024 * 1024 })
   * ```
   */
  partSize?: number
  /**
   * Parts of one upload sent at once (default 4). An upload holds at most `(queueSize + 1) × partSize` bytes.
   *
   * @example
   * ```ts
   * createS3BlobStore({ bucket: 'content', queueSize: 2 })
   * ```
   */
  queueSize?: number
  /**
   * How old an unfinished multipart upload or an unreferenced blob must be before {@link BlobStore.sweep} removes
   * it (default 24 h). Several servers share a bucket: an upload another server started a minute ago is not
   * abandoned, whatever `olderThan` the caller passes.
   *
   * @example
   * ```ts
   * createS3BlobStore({ bucket: 'content', abandonedAfterMs: 6 * 60 * 60 * 1000 })
   * ```
   */
  abandonedAfterMs?: number
  /**
   * Keys or uploads asked for per list request of the sweep (default 1000, S3's most).
   *
   * @example
   * ```ts
   * createS3BlobStore({ bucket: 'content', listPageSize: 500 })
   * ```
   */
  listPageSize?: number
  /**
   * Let the service hand out presigned S3 GET URLs as the temporary `url` of private files, so downloads go to
   * the storage directly (default `false`: every content URL is served by botshelf).
   *
   * @example
   * ```ts
   * createS3BlobStore({ bucket: 'content', presignDownloads: true })
   * ```
   */
  presignDownloads?: boolean
  /**
   * The clock of sweeps and signatures (default the wall clock); the backend passes its own.
   *
   * @example
   * ```ts
   * createS3BlobStore({ bucket: 'content', now: () => new Date('2026-01-01T00:00:00Z') })
   * ```
   */
  now?: Clock
  /**
   * The HTTP layer of the S3 client (default the SDK's node:http handler). Tests pass one that records requests.
   *
   * @example
   * ```ts
   * createS3BlobStore({ bucket: 'content', requestHandler: new NodeHttpHandler({ connectionTimeout: 5000 }) })
   * ```
   */
  requestHandler?: S3ClientConfig['requestHandler']
}

/** The S3 blob store: the port, plus what its uploads hold in memory. */
export interface S3BlobStore extends BlobStore {
  /** Part buffers held now and at most, parts and multipart uploads sent, since the store was made. */
  uploadStats(): Readonly<PartBufferAccount>
  /** Closes the S3 client's connections. */
  close(): void
  /** The S3 client (for operators' checks; the store owns it). */
  readonly client: S3Client
  /**
   * Resolves the credentials presigned URLs are signed with (again when they near expiry). Until it has run once,
   * {@link BlobStore.presignedReadUrl} answers `undefined` and the service serves the content itself;
   * `openS3BlobStore` awaits it.
   */
  refreshSigningCredentials(): Promise<void>
}

function newBlobId(): string {
  return `blob_${randomBytes(16).toString('hex')}`
}

function checkSize(name: string, value: number | undefined, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new TypeError(`${name}: expected an integer from ${min} to ${max}, received ${String(value)}`)
  }
  return value
}

/**
 * Streams a body the SDK returned (a node:http response in Node) as a web stream whose failures are `BlobError`s
 * too: a connection to the storage that breaks in the middle of a download errors the stream with
 * `BLOB_STORAGE_UNAVAILABLE`, never with a raw socket error.
 */
function webStreamOf(body: unknown): ReadableStream<Uint8Array> {
  const withTransform = body as { transformToWebStream?: () => ReadableStream<Uint8Array> } | undefined
  if (!withTransform?.transformToWebStream) throw toBlobError(Object.assign(new Error('a read answered without a body'), { name: 'EmptyBody' }), 'GetObject')
  const reader = withTransform.transformToWebStream().getReader()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await reader.read()
        if (next.done) controller.close()
        else controller.enqueue(next.value)
      } catch (error) {
        controller.error(toBlobError(error, 'GetObject'))
      }
    },
    async cancel(reason) {
      await reader.cancel(reason)
    },
  })
}

function destroyBody(body: unknown): void {
  ;(body as { destroy?: () => void } | undefined)?.destroy?.()
}

/** `bytes 0-9/11` → its numbers; `undefined` when absent or another form. */
function parseContentRange(header: string | undefined): { start: number; end: number; total: number } | undefined {
  const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header ?? '')
  if (!match) return undefined
  return { start: Number(match[1]), end: Number(match[2]), total: Number(match[3]) }
}

/** Keeps bytes `start` to `end` (inclusive) of a stream and drops the rest. */
function byteSlice(start: number, end: number): TransformStream<Uint8Array, Uint8Array> {
  let position = 0
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      const from = Math.max(start - position, 0)
      const to = Math.min(end + 1 - position, chunk.byteLength)
      position += chunk.byteLength
      if (to > from) controller.enqueue(chunk.subarray(from, to))
      if (position > end) controller.terminate()
    },
  })
}

const emptyStream = (): ReadableStream<Uint8Array> =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.close()
    },
  })

/** Whether an SDK error says the object (or upload) is not there. */
function isMissing(error: unknown): boolean {
  const code = storageErrorCode(error)
  return code === 'NoSuchKey' || code === 'NotFound' || code === 'NoSuchUpload' || (storageHttpStatus(error) === 404 && code !== 'NoSuchBucket')
}

/** The step of S3's object times (`LastModified`, a multipart upload's `Initiated`): whole seconds. */
const S3_TIMESTAMP_STEP_MS = 1000

/**
 * The S3-compatible adapter of the {@link BlobStore} port. Content is streamed up in parts with bounded memory
 * (see {@link S3BlobStoreOptions.partSize}), hashed and counted on the way with the local store's exact limits
 * (more bytes than declared aborts at once; fewer fails at the end), and becomes visible only when the multipart
 * upload completes (or its single PutObject lands); any failure aborts the upload. Objects are
 * `<prefix>blobs/<blob id>`, the id random, never a user's key. Reads stream ranges with GetObject; the sweep
 * aborts multipart uploads and deletes unreferenced blobs older than `abandonedAfterMs`. Every storage failure
 * becomes a `BlobError`.
 *
 * @example
 * ```ts
 * const blobs = createS3BlobStore({ bucket: 'content', region: 'eu-west-3' })
 * const { blobId, sha256 } = await blobs.write(request.body!, { expectedBytes: 1024 })
 * ```
 */
export function createS3BlobStore(options: S3BlobStoreOptions): S3BlobStore {
  const prefix = options.prefix ?? ''
  if (prefix !== '' && !prefix.endsWith('/')) throw new TypeError(`prefix: expected '' or a prefix ending in '/', received ${JSON.stringify(prefix)}`)
  if (!options.bucket) throw new TypeError('bucket: expected a bucket name, received an empty string')
  const region = options.region ?? 'us-east-1'
  const partSize = checkSize('partSize', options.partSize, MIN_PART_BYTES, MAX_PART_BYTES, 8 * MIB)
  const queueSize = checkSize('queueSize', options.queueSize, 1, 64, 4)
  const abandonedAfterMs = checkSize('abandonedAfterMs', options.abandonedAfterMs, 0, Number.MAX_SAFE_INTEGER, 24 * 60 * 60 * 1000)
  const listPageSize = checkSize('listPageSize', options.listPageSize, 1, 1000, 1000)
  const now = options.now ?? systemClock
  const bucket = options.bucket
  const blobsPrefix = `${prefix}blobs/`
  const account: PartBufferAccount = { bufferedBytes: 0, peakBufferedBytes: 0, partsUploaded: 0, multipartUploads: 0 }

  quietSdkNodeWarning()
  const client = new S3Client({
    region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle ?? false,
    ...(options.credentials ? { credentials: options.credentials } : {}),
    // A storage that does not accept the connection fails fast; no idle timeout once connected, since a download
    // waits on its reader (a slow client pauses the S3 socket) and must not be cut for it.
    requestHandler: options.requestHandler ?? { connectionTimeout: 10_000 },
    // Checksums only where S3 requires them: the newer default (CRC headers and trailers on every upload) is
    // refused by many S3-compatible services. The signed payload hash and our own sha256 keep integrity.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })

  const keyOf = (blobId: string): string => {
    if (!BLOB_ID.test(blobId)) throw new BlobError('BLOB_BAD_ID', `not a blob id: ${JSON.stringify(blobId)}`)
    return `${blobsPrefix}${blobId}`
  }

  async function write(source: AsyncIterable<Uint8Array>, writeOptions: BlobWriteOptions = {}): Promise<WrittenBlob> {
    const hardLimit = writeOptions.maxBytes ?? DEFAULT_MAX_BLOB_BYTES
    const limit = writeOptions.expectedBytes !== undefined ? Math.min(writeOptions.expectedBytes, hardLimit) : hardLimit
    const blobId = newBlobId()
    const hash = createHash('sha256')
    const upload = new PartUploader({ client, bucket, key: keyOf(blobId), partSize, queueSize, account })
    let size = 0
    try {
      for await (const chunk of source) {
        size += chunk.byteLength
        if (size > limit) throw new BlobTooLargeError(limit)
        hash.update(chunk)
        await upload.append(chunk)
      }
      if (writeOptions.expectedBytes !== undefined && size !== writeOptions.expectedBytes) {
        throw new BlobSizeMismatchError(writeOptions.expectedBytes, size)
      }
      await upload.finish()
      return { blobId, size, sha256: hash.digest('hex') }
    } catch (error) {
      await upload.abort()
      throw error
    }
  }

  async function statBlob(blobId: string): Promise<{ size: number } | undefined> {
    const key = keyOf(blobId)
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))
      return { size: head.ContentLength ?? 0 }
    } catch (error) {
      if (isMissing(error)) return undefined
      throw toBlobError(error, 'HeadObject')
    }
  }

  async function read(blobId: string, range?: ByteRange): Promise<OpenedBlob> {
    const key = keyOf(blobId)
    if (range) {
      const { start, end } = range
      if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || start > end + 1) {
        throw new BlobError('BLOB_RANGE', `range ${start}-${end} is not a byte range`)
      }
      if (start === end + 1) {
        // An empty range has no HTTP form: check the blob and the bounds, answer nothing.
        const info = await statBlob(blobId)
        if (!info) throw new BlobNotFoundError(blobId)
        if (end >= info.size) throw new BlobError('BLOB_RANGE', `range ${start}-${end} is outside a blob of ${info.size} bytes`)
        return { size: info.size, stream: emptyStream() }
      }
    }
    let answer
    try {
      answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }))
    } catch (error) {
      if (isMissing(error)) throw new BlobNotFoundError(blobId)
      if (storageErrorCode(error) === 'InvalidRange' || storageHttpStatus(error) === 416) {
        throw new BlobError('BLOB_RANGE', `range ${range?.start}-${range?.end} is outside the blob`)
      }
      throw toBlobError(error, 'GetObject')
    }
    if (!range) return { size: answer.ContentLength ?? 0, stream: webStreamOf(answer.Body) }
    // HTTP lets a server answer more than the range asked (the whole object, or a longer range: some
    // S3-compatible servers do for `bytes=0-0`): cut the asked range out of what came.
    const answered = parseContentRange(answer.ContentRange) ?? { start: 0, end: (answer.ContentLength ?? 0) - 1, total: answer.ContentLength ?? 0 }
    if (range.end >= answered.total) {
      // S3 shortens a range that runs past the end; the port refuses it, as the local store does.
      destroyBody(answer.Body)
      throw new BlobError('BLOB_RANGE', `range ${range.start}-${range.end} is outside a blob of ${answered.total} bytes`)
    }
    if (answered.start > range.start || answered.end < range.end) {
      destroyBody(answer.Body)
      throw toBlobError(Object.assign(new Error(`asked bytes ${range.start}-${range.end}, received ${answered.start}-${answered.end}`), { name: 'RangeMismatch' }), 'GetObject')
    }
    const stream = webStreamOf(answer.Body)
    const exact = answered.start === range.start && answered.end === range.end
    return { size: answered.total, stream: exact ? stream : stream.pipeThrough(byteSlice(range.start - answered.start, range.end - answered.start)) }
  }

  async function deleteBlob(blobId: string): Promise<void> {
    const key = keyOf(blobId)
    try {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }))
    } catch (error) {
      if (isMissing(error)) return
      throw toBlobError(error, 'DeleteObject')
    }
  }

  async function abortAbandonedUploads(cutoff: Date): Promise<number> {
    let aborted = 0
    let keyMarker: string | undefined
    let uploadIdMarker: string | undefined
    for (;;) {
      let page
      try {
        page = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: blobsPrefix, MaxUploads: listPageSize, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }))
      } catch (error) {
        throw toBlobError(error, 'ListMultipartUploads')
      }
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId || !upload.Initiated || upload.Initiated >= cutoff) continue
        try {
          await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }))
          aborted++
        } catch (error) {
          if (!isMissing(error)) throw toBlobError(error, 'AbortMultipartUpload')
        }
      }
      if (!page.IsTruncated) return aborted
      keyMarker = page.NextKeyMarker
      uploadIdMarker = page.NextUploadIdMarker
    }
  }

  async function deleteOrphans(referenced: BlobsReferenced, cutoff: Date): Promise<number> {
    let orphans = 0
    let continuationToken: string | undefined
    do {
      let page
      try {
        page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: blobsPrefix, MaxKeys: listPageSize, ContinuationToken: continuationToken }))
      } catch (error) {
        throw toBlobError(error, 'ListObjectsV2')
      }
      // One question to the database a page, not one a blob: at a million objects, a thousand queries.
      const old = (page.Contents ?? []).flatMap((object) =>
        object.Key && object.LastModified && object.LastModified < cutoff ? [{ key: object.Key, name: object.Key.slice(blobsPrefix.length) }] : [],
      )
      const kept = await referenced(old.map((object) => object.name).filter((name) => BLOB_ID.test(name)))
      for (const { key, name } of old) {
        if (kept.has(name)) continue
        try {
          await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }))
          orphans++
        } catch (error) {
          if (!isMissing(error)) throw toBlobError(error, 'DeleteObject')
        }
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (continuationToken)
    return orphans
  }

  async function sweep(referenced: BlobsReferenced, sweepOptions: { olderThan?: Date } = {}): Promise<SweepReport> {
    const graceCutoff = now().getTime() - abandonedAfterMs
    // S3 keeps LastModified and Initiated in whole seconds: an object written in the second of `olderThan` can read
    // as older than it, so `olderThan` is read a step earlier (the day of abandonment, by default, is earlier still).
    const olderThanMs = sweepOptions.olderThan ? sweepOptions.olderThan.getTime() - S3_TIMESTAMP_STEP_MS : graceCutoff
    const cutoff = new Date(Math.min(graceCutoff, olderThanMs))
    const temporaryFiles = await abortAbandonedUploads(cutoff)
    const orphans = await deleteOrphans(referenced, cutoff)
    return { temporaryFiles, orphans }
  }

  const signer = signingCredentialsOf(client)
  const objectUrlOf = (blobId: string): URL =>
    s3ObjectUrl({ bucket, region, ...(options.endpoint ? { endpoint: options.endpoint } : {}), forcePathStyle: options.forcePathStyle ?? false }, keyOf(blobId))

  function presignedReadUrl(blobId: string, presign: PresignedReadOptions): string | undefined {
    const expiresInSeconds = Math.min(Math.max(1, Math.floor(presign.expiresInSeconds)), MAX_PRESIGN_SECONDS)
    const credentials = signer.usableUntil(new Date(presign.now.getTime() + expiresInSeconds * 1000))
    if (!credentials) return undefined
    return presignS3Get({
      objectUrl: objectUrlOf(blobId),
      region,
      credentials,
      now: presign.now,
      expiresInSeconds,
      query: {
        'response-content-type': presign.contentType,
        'response-content-disposition': presign.contentDisposition,
        'response-cache-control': 'private, no-cache',
      },
    })
  }

  const store: S3BlobStore = {
    write,
    read,
    stat: statBlob,
    delete: deleteBlob,
    sweep,
    client,
    uploadStats: () => ({ ...account }),
    close: () => client.destroy(),
    refreshSigningCredentials: () => signer.refresh(),
  }
  if (options.presignDownloads) store.presignedReadUrl = presignedReadUrl
  return store
}

/**
 * Holds the client's resolved credentials for synchronous signing: the last ones the SDK's provider gave, and a
 * refresh started in the background when they would expire before a URL does (that URL is then served by botshelf).
 */
function signingCredentialsOf(client: S3Client): { usableUntil(until: Date): SigningCredentials | undefined; refresh(): Promise<void> } {
  let current: (SigningCredentials & { expiration?: Date }) | undefined
  let refreshing: Promise<void> | undefined
  const refresh = (): Promise<void> => {
    refreshing ??= client.config
      .credentials({ forceRefresh: current !== undefined })
      .then((resolved) => {
        current = {
          accessKeyId: resolved.accessKeyId,
          secretAccessKey: resolved.secretAccessKey,
          ...(resolved.sessionToken ? { sessionToken: resolved.sessionToken } : {}),
          ...(resolved.expiration ? { expiration: resolved.expiration } : {}),
        }
      })
      .catch((error: unknown) => {
        throw toBlobError(error, 'ResolveCredentials')
      })
      .finally(() => {
        refreshing = undefined
      })
    return refreshing
  }
  return {
    refresh,
    usableUntil(until) {
      const margin = 60_000
      if (current && (!current.expiration || current.expiration.getTime() > until.getTime() + margin)) return current
      // A failed background refresh is retried on the next URL; the content is served by botshelf meanwhile.
      refresh().catch(() => undefined)
      return undefined
    },
  }
}
