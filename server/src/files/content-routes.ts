import { fileStorageQuotaExceeded } from '../usage/index.js'
import { Hono } from 'hono'
import { BlobError, BlobSizeMismatchError, BlobTooLargeError } from '../blobs/index.js'
import { filesLimits } from 'botshelf/api'
import type { AppEnv } from '../http/env.js'
import { BotshelfError } from 'botshelf/api'
import { ServiceError } from '../http/service-error.js'
import type { RawRoute, RawRouteParameter, RawRouteResponse } from '../http/openapi/raw-route.js'
import { registerRoute } from '../http/register-route.js'
import { jsonAnswer } from '../http/json-answer.js'
import { CONTENT_PREFIX, isExpired, readPublicToken, readVersionedToken } from './content-urls.js'
import { serveContent } from './serve-content.js'
import { UploadAbortedError, uploadBody } from './upload-body.js'

// The OpenAPI descriptions of the signed content routes, declared with them below: `registerRoute` mounts each handler
// on its description's methods and path, and openapi.test.ts sends real requests and checks each status is listed.

const fileIdParameter: RawRouteParameter = { name: 'fileId', in: 'path', required: true, description: 'The file id (as in the signed URL).' }

function tokenParameter(what: string): RawRouteParameter {
  return {
    name: 'token',
    in: 'query',
    required: true,
    description: `The signed token of the URL (${what}); the URL is used exactly as the service returned it.`,
  }
}

const downloadHeaders: RawRouteParameter[] = [
  { name: 'Range', in: 'header', required: false, description: 'One byte range (`bytes=0-99`, `bytes=100-`, `bytes=-100`); several ranges get the whole content.' },
  { name: 'If-Range', in: 'header', required: false, description: 'An ETag: the Range is honoured only when it names the current content.' },
  { name: 'If-None-Match', in: 'header', required: false, description: 'ETags (or `*`): a match answers 304.' },
]

const contentHeaders: Record<string, string> = {
  ETag: 'The sha256 of the content, quoted.',
  'Content-Type': 'The content type given in upsertFile (or detected from the key).',
  'Content-Length': 'Bytes in the body.',
  'Accept-Ranges': '`bytes`.',
  'Content-Disposition': '`attachment` unless the type is on the inline allowlist (never HTML or SVG); private URLs add the file name.',
  'Content-Security-Policy': 'A sandboxing policy for whatever a browser renders.',
  'X-Content-Type-Options': '`nosniff`.',
  'Cache-Control': '`private, no-cache` (temporary URL) or `public, no-cache` (permanent URL).',
}

const downloadResponses: Record<number, RawRouteResponse> = {
  200: { description: 'The whole content (also when Range is absent, several ranges, or If-Range names another version).', body: 'bytes', headers: contentHeaders },
  206: {
    description: 'The requested byte range.',
    body: 'bytes',
    headers: { ...contentHeaders, 'Content-Range': '`bytes start-end/size`.' },
  },
  304: { description: 'If-None-Match matched the current ETag.', body: 'none', headers: { ETag: 'The sha256 of the content, quoted.' } },
  404: { description: 'The file does not exist, or has no content yet.', body: 'error' },
  416: {
    description: 'The range starts past the end of the content; the wire error body (type InvalidPayload, code 416).',
    body: 'error',
    headers: { 'Content-Range': '`bytes */size`.' },
  },
  500: { description: 'The server could not read the content.', body: 'error' },
}

/**
 * `PUT /v1/content/upload/{fileId}?token=…`: the `uploadUrl` of upsertFile.
 *
 * @example
 * ```ts
 * router.put(toHonoPath(uploadContentRoute.path), handler)
 * ```
 */
const uploadContentRoute: RawRoute = {
  methods: ['PUT'],
  path: `${CONTENT_PREFIX}/upload/{fileId}`,
  operationId: 'uploadFileContent',
  summary: "Upload a file's content to its uploadUrl",
  description:
    'Authorized by the signed token alone (the official client sends no Authorization header). Streams the body to disk; ' +
    'it must have exactly the size declared in upsertFile (at most 1 GB). Success makes it the content (`upload_completed`); ' +
    'a refused body records `upload_failed` with a `failedStatusReason`.',
  parameters: [
    fileIdParameter,
    tokenParameter('an upload token for one version of the file, valid 1 hour by default'),
    {
      name: 'Content-Length',
      in: 'header',
      required: false,
      description: 'Body size; larger than the declared size is refused at once with 413. Chunked bodies are counted as they arrive.',
      schema: { type: 'integer', minimum: 0 },
    },
    { name: 'Content-Type', in: 'header', required: false, description: 'Any type; the content type of the file is the one given in upsertFile.' },
  ],
  requestBody: { description: 'The raw bytes, any content type, exactly the size declared in upsertFile.' },
  responses: {
    200: { description: 'Stored; the file is `upload_completed`.', body: 'empty-json' },
    400: { description: '`InvalidPayload`: fewer bytes than declared.', body: 'error' },
    403: { description: '`Forbidden`: the token is missing, altered, signed by another server, or expired.', body: 'error' },
    404: { description: '`ResourceNotFound`: the file no longer exists (or was deleted during the upload).', body: 'error' },
    410: { description: '`ResourceGone`: a later upsertFile started a new version (this URL is for an older one), or this URL was already used: an upload URL works once its upload completed.', body: 'error' },
    413: { description: '`PayloadTooLarge`: more bytes than declared, or more than 1 GB.', body: 'error' },
    500: { description: '`Internal`: the server could not store the content (disk full, permissions).', body: 'error' },
  },
}

/**
 * `GET`/`HEAD /v1/content/files/{fileId}?token=…`: the temporary `url` of a private file.
 *
 * @example
 * ```ts
 * router.get(toHonoPath(privateContentRoute.path), handler)
 * ```
 */
const privateContentRoute: RawRoute = {
  methods: ['GET', 'HEAD'],
  path: `${CONTENT_PREFIX}/files/{fileId}`,
  operationId: 'downloadFileContent',
  summary: "Download a private file's content from its temporary url",
  description: 'Authorized by the signed token alone (15 minutes by default). HEAD answers the same headers without a body.',
  parameters: [fileIdParameter, tokenParameter('a download token for a version of the file'), ...downloadHeaders],
  responses: {
    ...downloadResponses,
    403: { description: '`Forbidden`: the token is missing, altered, signed by another server, or expired.', body: 'error' },
    410: { description: '`ResourceGone`: the file has newer content than this URL was made for; getFile returns a fresh URL.', body: 'error' },
  },
}

/**
 * `GET`/`HEAD /v1/content/public/{fileId}?token=…`: the permanent `url` of a `public_content` file.
 *
 * @example
 * ```ts
 * router.get(toHonoPath(publicContentRoute.path), handler)
 * ```
 */
const publicContentRoute: RawRoute = {
  methods: ['GET', 'HEAD'],
  path: `${CONTENT_PREFIX}/public/{fileId}`,
  operationId: 'downloadPublicFileContent',
  summary: "Download a public file's content from its permanent url",
  description:
    'Works while the file has the `public_content` access policy; any problem (bad token, no such file, policy removed) is a 404 ' +
    'so the URL reveals nothing. HEAD answers the same headers without a body.',
  parameters: [fileIdParameter, tokenParameter('a permanent token bound to the file id'), ...downloadHeaders],
  responses: downloadResponses,
}

/**
 * Status recorded (request log) for an upload whose client went away: nginx's "client closed request". Nobody
 * receives it; it keeps a disconnect apart from both a server error (5xx) and a refused request (4xx).
 */
const CLIENT_CLOSED_REQUEST = 499

function forbidden(what: string): ServiceError {
  return new ServiceError('Forbidden', what)
}

/**
 * The unauthenticated content routes, authorized by their signed URL alone (the official client sends no
 * token on the upload PUT):
 * - `PUT /v1/content/upload/{fileId}?token=…`: streams the body to disk, enforcing the declared size and 1 GB on the
 *   bytes received, then makes it the file's content (`upload_completed`) or records `upload_failed` with a
 *   `failedStatusReason`;
 * - `GET /v1/content/files/{fileId}?token=…`: a private file's temporary URL;
 * - `GET /v1/content/public/{fileId}?token=…`: a `public_content` file's permanent URL (only while the policy is set).
 *
 * Each route is declared with its description (above), which the OpenAPI document lists.
 *
 * @example
 * ```ts
 * const feature: ServiceFeature = { name: 'files', publicRoutes: filesContentRoutes(), routes: filesRoutes() }
 * ```
 */
export function filesContentRoutes(): Hono<AppEnv> {
  const router = new Hono<AppEnv>()

  registerRoute(router, {
    docs: uploadContentRoute,
    handle: async (c) => {
      const services = c.get('services')
      const token = readVersionedToken(services.signingKey, 'upload', c.req.param('fileId') ?? '', c.req.query('token'))
      if (!token) throw forbidden('This upload URL is not valid: its token is missing, altered, or signed by another server')
      if (isExpired(token, services.now())) {
        throw forbidden(`This upload URL expired at ${new Date(token.e * 1000).toISOString()}; call upsertFile again for a new one`)
      }
      const file = await services.backend.files.getAnyById(token.f)
      if (!file) throw new ServiceError('ResourceNotFound', 'The file of this upload URL no longer exists', { id: token.f })
      if (file.version !== token.v) {
        throw new ServiceError(
          'ResourceGone',
          `This upload URL is for version ${token.v} of file ${JSON.stringify(file.key)}; a later upsertFile started version ${file.version}`,
          { id: file.id },
        )
      }

      // Single use once it worked (issue 28): a second PUT would replace the content as the same version, and
      // download URLs already handed out would serve the new bytes.
      if (file.blobId !== null && file.status !== 'upload_pending' && file.status !== 'upload_failed') {
        throw new ServiceError(
          'ResourceGone',
          `This upload URL was already used: version ${token.v} of file ${JSON.stringify(file.key)} is complete; call upsertFile again to replace its content`,
          { id: file.id },
        )
      }
      const fail = (reason: string): Promise<void> => services.files.failUpload(file.id, token.v, reason)
      const declared = file.declaredSize
      const announced = c.req.header('content-length')
      if (announced !== undefined && /^\d+$/.test(announced) && Number(announced) > declared) {
        const reason = `Content-Length ${announced} exceeds the size declared in upsertFile (${declared} bytes)`
        await fail(reason)
        throw new ServiceError('PayloadTooLarge', reason, { id: file.id })
      }
      const overQuota = await fileStorageQuotaExceeded(services.backend, services.quotas, file, declared)
      if (overQuota) {
        await fail(overQuota)
        throw new ServiceError('PayloadTooLarge', overQuota, { id: file.id })
      }
      try {
        await services.files.uploadContent(file, token.v, uploadBody(c.req.raw), { expectedBytes: declared, maxBytes: filesLimits.fileMaxBytes })
      } catch (error) {
        // The file went or moved on during the upload (404 / 410): nothing to record.
        if (error instanceof BotshelfError && !(error instanceof BlobError) && !(error instanceof UploadAbortedError)) throw error
        if (error instanceof UploadAbortedError) {
          // The client is gone: not a server error. Record it, say so in the log, and answer no one.
          await fail('the upload was interrupted before all the content arrived')
          services.logger.log('warn', 'upload aborted by the client', {
            requestId: c.get('requestId'),
            fileId: file.id,
            version: token.v,
            bytesReceived: error.bytesReceived,
            declaredSize: declared,
            reason: error.cause instanceof Error ? error.cause.message : String(error.cause),
          })
          return new Response(null, { status: CLIENT_CLOSED_REQUEST })
        }
        if (error instanceof BlobTooLargeError) {
          const reason =
            declared >= filesLimits.fileMaxBytes
              ? `content exceeds the limit of ${filesLimits.fileMaxBytes} bytes (1 GB)`
              : `content exceeds the size declared in upsertFile (${declared} bytes)`
          await fail(reason)
          throw new ServiceError('PayloadTooLarge', reason, { id: file.id })
        }
        if (error instanceof BlobSizeMismatchError) {
          const reason = `content has ${error.received} bytes but upsertFile declared ${error.expected}`
          await fail(reason)
          throw new ServiceError('InvalidPayload', reason, { id: file.id })
        }
        // Anything else is the server's own failure (disk full, permissions, object storage down or refusing): a
        // 500 with its stack in the log, and the file says the upload failed.
        await fail('the server could not store the content')
        throw error
      }
      // With its length: written in one call, no web stream for the metrics to count through (decision 1232).
      return jsonAnswer(c, {}, 200)
    },
  })

  registerRoute(router, {
    docs: privateContentRoute,
    handle: async (c) => {
      const services = c.get('services')
      const now = services.now()
      const token = readVersionedToken(services.signingKey, 'download', c.req.param('fileId') ?? '', c.req.query('token'))
      if (!token) throw forbidden('This content URL is not valid: its token is missing, altered, or signed by another server')
      if (isExpired(token, now)) throw forbidden(`This content URL expired at ${new Date(token.e * 1000).toISOString()}; getFile returns a fresh one`)
      const file = await services.backend.files.getAnyById(token.f)
      if (!file) throw new ServiceError('ResourceNotFound', 'The file of this content URL no longer exists', { id: token.f })
      if (file.contentVersion !== null && file.contentVersion > token.v) {
        throw new ServiceError('ResourceGone', 'This content URL is for an earlier version of the file; getFile returns a fresh one', { id: file.id })
      }
      return serveContent(c, file, 'private')
    },
  })

  registerRoute(router, {
    docs: publicContentRoute,
    handle: async (c) => {
      const services = c.get('services')
      const fileId = readPublicToken(services.signingKey, c.req.param('fileId') ?? '', c.req.query('token'))
      const file = fileId ? await services.backend.files.getAnyById(fileId) : undefined
      if (!file || !file.accessPolicies.includes('public_content')) {
        throw new ServiceError('ResourceNotFound', 'No public content at this URL')
      }
      return serveContent(c, file, 'public')
    },
  })

  return router
}
