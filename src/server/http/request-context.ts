import { randomBytes } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import type { AppEnv, AppServices } from '../env.js'
import { handleError } from './error-handler.js'

/**
 * First middleware of the app: puts the services and a fresh request id on the context, answers with an
 * `x-request-id` header, and writes one structured log line per request when it ends
 * (`{ msg: 'request', method, path, status, ms, requestId, botId }`).
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
    services.logger.log('info', 'request', {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      requestId,
      botId: principal?.botId ?? c.req.header('x-bot-id') ?? null,
    })
  }
}
