import type { MiddlewareHandler } from 'hono'
import type { AppEnv, AppServices } from './env.js'
import { routeLabel } from '../metrics/route-label.js'
import { handleError } from './error-handler.js'
import { declaredLength, recordRequest } from './pipeline/record.js'
import { beginRequest } from './pipeline/request-id.js'
import { apiAnswerHeaders, takesApiAnswerHeaders } from './pipeline/api-answer-headers.js'

/**
 * First middleware of the app, the pipeline's first and last steps (`beginRequest`, `recordRequest`): puts the services and a fresh request id on the context, answers with an
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
    const { requestId, started } = beginRequest()
    c.set('services', services)
    c.set('requestId', requestId)
    // Set before the answer exists, Hono copies it into every answer made through the context; an answer built
    // outside it (a download's Response, an error turned into one below) gets it after, through the same call.
    c.header('x-request-id', requestId)
    const apiAnswer = takesApiAnswerHeaders(c.req.path)
    if (apiAnswer) for (const [name, value] of Object.entries(apiAnswerHeaders)) c.header(name, value)
    try {
      await next()
    } catch (error) {
      c.res = handleError(error, c)
    }
    // Through Hono, never in place on `c.res.headers`: @hono/node-server's lightweight Response rebuilds itself from
    // its original init when read later, and a header added in place was lost over a socket (decision 1211, amended).
    if (c.res.headers.get('x-request-id') !== requestId) c.header('x-request-id', requestId)
    if (apiAnswer && c.res.headers.get('cache-control') === null) for (const [name, value] of Object.entries(apiAnswerHeaders)) c.header(name, value)
    const principal = c.get('principal')
    const metrics = services.metrics
    const operation = metrics ? routeLabel(c) : ''
    // A JSON answer of the operations says its length (register-operation.ts): counted without touching the body,
    // so the answer keeps @hono/node-server's direct write. Other answers (downloads stream) are counted as they leave.
    const knownLength = metrics ? jsonLength(c.res.headers) : undefined
    recordRequest(services, {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      elapsedMs: performance.now() - started,
      requestId,
      botId: principal?.botId ?? c.req.header('x-bot-id') ?? null,
      operation,
      bytesIn: declaredLength(c.req.header('content-length')),
      bytesOut: knownLength,
    })
    if (!metrics || knownLength !== undefined) return
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


/** The byte length of a JSON answer that states it, else undefined. */
function jsonLength(headers: Headers): number | undefined {
  const type = headers.get('content-type')
  if (type === null || !type.startsWith('application/json')) return undefined
  const length = headers.get('content-length')
  if (length === null || !/^\d+$/.test(length)) return undefined
  return Number(length)
}
