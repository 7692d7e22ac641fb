import { z } from 'zod'
import type { BlobStore } from '../blobs/index.js'
import type { FileRecord } from '../store/index.js'
import { openToken, sealToken } from '../http/sealed-token.js'
import { contentDisposition } from './serve-content.js'

/** How long signed URLs stay valid, in seconds. */
export interface UrlLifetimes {
  /**
   * Lifetime of an `uploadUrl` (default 3600 s: one hour). Checked when the PUT starts.
   *
   * @example
   * ```ts
   * createFilesFeature({ urls: { uploadSeconds: 600, downloadSeconds: 300 } })
   * ```
   */
  uploadSeconds: number
  /**
   * Lifetime of the temporary `url` of a private file (default 900 s: fifteen minutes). `getFile` returns a
   * fresh one.
   *
   * @example
   * ```ts
   * createFilesFeature({ urls: { uploadSeconds: 3600, downloadSeconds: 60 } })
   * ```
   */
  downloadSeconds: number
}

/** Default URL lifetimes: uploads one hour, private downloads fifteen minutes. */
export const defaultUrlLifetimes: UrlLifetimes = { uploadSeconds: 3600, downloadSeconds: 900 }

/**
 * Path prefix of the unauthenticated content routes. URLs are `<prefix>/<kind>/<file id>?token=<sealed token>`:
 * the capability sits in the query string, which the request log leaves out.
 */
export const CONTENT_PREFIX = '/v1/content'

const VersionedSchema = z.object({ f: z.string(), v: z.number().int(), e: z.number().int() })
const PublicSchema = z.object({ f: z.string() })

/** A decoded upload or download token: file id, version, expiry (epoch seconds). */
export type VersionedToken = z.infer<typeof VersionedSchema>

function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000)
}

/**
 * The absolute, self-authorizing `uploadUrl` of the latest version of a file: scoped to upload, bound to
 * the file id and version, expiring.
 *
 * @example
 * ```ts
 * uploadUrlFor(key, 'http://localhost:3000', file, new Date(), defaultUrlLifetimes)
 * // 'http://localhost:3000/v1/content/upload/file_01K...?token=eyJ...'
 * ```
 */
export function uploadUrlFor(key: Buffer, base: string, file: FileRecord, now: Date, lifetimes: UrlLifetimes): string {
  const token = sealToken(key, 'upload', { f: file.id, v: file.version, e: epochSeconds(now) + lifetimes.uploadSeconds })
  return `${base}${CONTENT_PREFIX}/upload/${file.id}?token=${token}`
}

/**
 * The `url` of a file: permanent and unique to the file when it has `public_content`, otherwise a temporary
 * signed URL bound to the file's latest version. When the blob store can presign reads (S3 with
 * `presignDownloads`) and the file has content, a private file's temporary URL is the storage's own presigned
 * GET instead, with the same lifetime, content type and disposition; public URLs are always served by botshelf.
 *
 * @example
 * ```ts
 * contentUrlFor(key, base, file, new Date(), defaultUrlLifetimes)
 * contentUrlFor(key, base, file, new Date(), defaultUrlLifetimes, backend.blobs) // presigned when the store offers it
 * ```
 */
export function contentUrlFor(
  key: Buffer,
  base: string,
  file: FileRecord,
  now: Date,
  lifetimes: UrlLifetimes,
  blobs?: Pick<BlobStore, 'presignedReadUrl'>,
): string {
  if (file.accessPolicies.includes('public_content')) {
    return `${base}${CONTENT_PREFIX}/public/${file.id}?token=${sealToken(key, 'public', { f: file.id })}`
  }
  if (blobs?.presignedReadUrl && file.blobId) {
    const contentType = file.blobContentType ?? file.contentType
    const presigned = blobs.presignedReadUrl(file.blobId, {
      now,
      expiresInSeconds: lifetimes.downloadSeconds,
      contentType,
      contentDisposition: contentDisposition(file, contentType, 'private'),
    })
    if (presigned) return presigned
  }
  const token = sealToken(key, 'download', { f: file.id, v: file.version, e: epochSeconds(now) + lifetimes.downloadSeconds })
  return `${base}${CONTENT_PREFIX}/files/${file.id}?token=${token}`
}

/**
 * Reads an upload or download token; `undefined` when missing, altered, made for another purpose or for
 * another file than the one in the path.
 *
 * @example
 * ```ts
 * const token = readVersionedToken(key, 'upload', c.req.param('fileId'), c.req.query('token'))
 * ```
 */
export function readVersionedToken(
  key: Buffer,
  purpose: 'upload' | 'download',
  fileId: string,
  token: string | undefined,
): VersionedToken | undefined {
  if (!token) return undefined
  const parsed = VersionedSchema.safeParse(openToken(key, purpose, token))
  return parsed.success && parsed.data.f === fileId ? parsed.data : undefined
}

/**
 * Reads a public content token into its file id; `undefined` when missing, altered or for another file.
 *
 * @example
 * ```ts
 * readPublicToken(key, c.req.param('fileId'), c.req.query('token')) // 'file_01K...'
 * ```
 */
export function readPublicToken(key: Buffer, fileId: string, token: string | undefined): string | undefined {
  if (!token) return undefined
  const parsed = PublicSchema.safeParse(openToken(key, 'public', token))
  return parsed.success && parsed.data.f === fileId ? parsed.data.f : undefined
}

/**
 * Whether a token's expiry (epoch seconds) has passed at `now`.
 *
 * @example
 * ```ts
 * isExpired({ f: 'file_1', v: 1, e: 100 }, new Date(101_000)) // true
 * ```
 */
export function isExpired(token: VersionedToken, now: Date): boolean {
  return epochSeconds(now) >= token.e
}
