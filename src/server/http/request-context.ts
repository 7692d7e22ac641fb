import { randomBytes } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import type { AppEnv, AppServices } from '../env.js'
import { routeLabel } from '../metrics/route-label.js'
import { handleError } from './error-handler.js'
import { requestLogLevel } from './log-level.js'

/**
 * First middleware of the app: puts the services and a fresh request id on the context, answers with an
 * `x-request-id` header, writes one structured log line per request when it ends
 * (`{ msg: 'request', method, path, status, ms, requestId, botId }`; at `error` for a 5xx, `warn` when slow,
 * `info` otherwise, 4xx included), and counts it in the metrics.
 *
 * It is the outermost layer, so it sees the response the caller gets: an error that escapes the layers below
 * (a 404 or 405 from the not-found handler, anything thrown outside a route) is turned into the wire error body
 * here, before the header is set and the status logged (docs/server.md, Logs).
 *
 * @example
 * ```ts
 * app.use('*', requestContext(services))
 * ```
 */
export function requestContext(services: AppServices): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now()
    const requestId = `req_${randomBytes(8).toString('hex')}`
    c.set('services', services)
    c.set('requestId', requestId)
    try {
      await next()
    } catch (error) {
      c.res = handleError(error, c)
    }
    c.header('x-request-id', requestId)
    const principal = c.get('principal')
    const elapsed = performance.now() - started
    const ms = Math.round(elapsed * 10) / 10
    const status = c.res.status
    services.logger.log(requestLogLevel(status, ms, services.slowRequestMs ?? DEFAULT_SLOW_REQUEST_MS), 'request', {
      method: c.req.method,
      path: c.req.path,
      status,
      ms,
      requestId,
      botId: principal?.botId ?? c.req.header('x-bot-id') ?? null,
    })
    const metrics = services.metrics
    if (metrics) {
      const operation = routeLabel(c)
      metrics.observeRequest({ operation, status, seconds: elapsed / 1000, bytesIn: contentLength(c.req.header('content-length')), bytesOut: 0 })
      // JSON answers carry no Content-Length and downloads stream: count the bytes as they leave.
      const body = c.res.body
      if (body) {
        const counted = body.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              metrics.observeResponseBytes(operation, chunk.byteLength)
              controller.enqueue(chunk)
            },
          }),
        )
        c.res = new Response(counted, { status: c.res.status, statusText: c.res.statusText, headers: c.res.headers })
      }
    }
  }
}

/** Requests slower than this are logged at `warn` unless the app says otherwise (`slowRequestMs`). */
export const DEFAULT_SLOW_REQUEST_MS = 1000

function contentLength(header: string | null | undefined): number {
  const value = Number(header ?? 0)
  return Number.isSafeInteger(value) && value > 0 ? value : 0
}
