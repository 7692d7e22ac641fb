import { fileStorageQuotaExceeded } from '../usage/index.js'
import { Hono } from 'hono'
import { BlobError, BlobSizeMismatchError, BlobTooLargeError } from '../blobs/index.js'
import { filesLimits } from 'botshelf/api'
import type { AppEnv } from '../http/env.js'
import { BotshelfError } from 'botshelf/api'
import { ServiceError } from '../http/service-error.js'
import { describeRawRoute } from '../http/openapi/raw-route.js'
import { toHonoPath } from '../http/register-operation.js'
import { jsonAnswer } from '../http/json-answer.js'
import { privateContentRoute, publicContentRoute, uploadContentRoute } from './content-route-docs.js'
import { isExpired, readPublicToken, readVersionedToken } from './content-urls.js'
import { serveContent } from './serve-content.js'
import { UploadAbortedError, uploadBody } from './upload-body.js'

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
 * Each route is registered from its description in content-route-docs.ts, which the OpenAPI document lists.
 *
 * @example
 * ```ts
 * const feature: ServiceFeature = { name: 'files', publicRoutes: filesContentRoutes(), routes: filesRoutes() }
 * ```
 */
export function filesContentRoutes(): Hono<AppEnv> {
  const router = new Hono<AppEnv>()

  describeRawRoute(router, uploadContentRoute)
  router.put(toHonoPath(uploadContentRoute.path), async (c) => {
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
      if (error instanceof BotshelfError && !(error instanceof BlobError)) throw error
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
  })

  describeRawRoute(router, privateContentRoute)
  router.get(toHonoPath(privateContentRoute.path), async (c) => {
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
  })

  describeRawRoute(router, publicContentRoute)
  router.get(toHonoPath(publicContentRoute.path), async (c) => {
    const services = c.get('services')
    const fileId = readPublicToken(services.signingKey, c.req.param('fileId') ?? '', c.req.query('token'))
    const file = fileId ? await services.backend.files.getAnyById(fileId) : undefined
    if (!file || !file.accessPolicies.includes('public_content')) {
      throw new ServiceError('ResourceNotFound', 'No public content at this URL')
    }
    return serveContent(c, file, 'public')
  })

  return router
}
