import type { Context } from 'hono'
import type { FileRecord } from '../store/index.js'
import type { AppEnv } from '../http/env.js'
import { refusalBody } from '../http/connections/index.js'
import { ServiceError } from '../http/service-error.js'
import { refuseRunnableDestination } from './fetch-destination.js'
import { etagMatches, parseRange } from './byte-range.js'
import { isInlineSafe } from './content-type.js'

/** Sandboxes whatever a browser renders from a content URL: no scripts, no plugins, no same-origin access. */
export const CONTENT_SECURITY_POLICY = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox"

/**
 * Private downloads carry the key's last segment as file name; public ones reveal nothing but the bytes. Presigned
 * storage URLs carry the same value, so both ways of downloading answer alike.
 *
 * @example
 * ```ts
 * contentDisposition(file, 'application/pdf', 'private') // attachment; filename="report.pdf"; filename*=UTF-8''report.pdf
 * ```
 */
export function contentDisposition(file: FileRecord, contentType: string, cache: 'public' | 'private'): string {
  const kind = isInlineSafe(contentType) ? 'inline' : 'attachment'
  if (cache === 'public') return kind
  const name = file.key.slice(file.key.lastIndexOf('/') + 1) || 'file'
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_')
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`
}

/**
 * Answers a download of a file's current content, safely: `ETag` (the sha256) with `If-None-Match` (304),
 * one `Range` (206, or 416 when unsatisfiable) honoured only when `If-Range`, if sent, names the current ETag, `X-Content-Type-Options: nosniff`, a sandboxing
 * `Content-Security-Policy`, and `Content-Disposition: attachment` unless the type is on the inline allowlist
 * (HTML and SVG never are). The body streams from disk.
 *
 * @example
 * ```ts
 * contentRoutes.get('/v1/content/public/:token', (c) => serveContent(c, file, 'public'))
 * ```
 */
export async function serveContent(c: Context<AppEnv>, file: FileRecord, cache: 'public' | 'private'): Promise<Response> {
  refuseRunnableDestination(c.req.header('sec-fetch-dest'), file.id)
  if (!file.blobId || file.size === null || !file.sha256) {
    throw new ServiceError('ResourceNotFound', `File ${JSON.stringify(file.key)} has no content yet (status ${file.status})`, { id: file.id })
  }
  const contentType = file.blobContentType ?? file.contentType
  const etag = `"${file.sha256}"`
  const headers = new Headers({
    ETag: etag,
    'Accept-Ranges': 'bytes',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'Content-Disposition': contentDisposition(file, contentType, cache),
    'Cache-Control': cache === 'public' ? 'public, no-cache' : 'private, no-cache',
  })
  if (etagMatches(c.req.header('if-none-match'), etag)) return new Response(null, { status: 304, headers })

  // If-Range: a range asked against another version of the content gets the whole (current) content.
  const ifRange = c.req.header('if-range')
  const rangeHeader = ifRange === undefined || ifRange.trim() === etag ? c.req.header('range') : undefined
  const range = parseRange(rangeHeader, file.size)
  if (range.kind === 'unsatisfiable') {
    // HTTP's 416 with its Content-Range, and the wire error body every error carries (the closest wire type:
    // the request asks for something the content cannot give).
    const refusal = {
      status: 416,
      type: 'InvalidPayload' as const,
      message: `range: expected a byte range that starts inside the content of ${file.size} bytes, received ${JSON.stringify(rangeHeader ?? '')}`,
      metadata: { size: file.size },
    }
    const body = c.req.method === 'HEAD' ? null : refusalBody(refusal, c.get('services').now())
    return new Response(body, {
      status: 416,
      headers: { 'Content-Range': `bytes */${file.size}`, 'Content-Type': 'application/json; charset=UTF-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' },
    })
  }
  headers.set('Content-Type', contentType)
  if (c.req.method === 'HEAD') {
    // Answer from the row: opening the blob would leave a file handle nobody reads.
    if (range.kind === 'partial') {
      headers.set('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`)
      headers.set('Content-Length', String(range.end - range.start + 1))
      return new Response(null, { status: 206, headers })
    }
    headers.set('Content-Length', String(file.size))
    return new Response(null, { status: 200, headers })
  }
  const { blobs } = c.get('services').backend
  if (range.kind === 'partial') {
    const opened = await blobs.read(file.blobId, { start: range.start, end: range.end })
    headers.set('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`)
    headers.set('Content-Length', String(range.end - range.start + 1))
    return new Response(opened.stream, { status: 206, headers })
  }
  const opened = await blobs.read(file.blobId)
  headers.set('Content-Length', String(file.size))
  return new Response(opened.stream, { status: 200, headers })
}
