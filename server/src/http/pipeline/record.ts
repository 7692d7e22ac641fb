import type { AppServices } from '../env.js'
import { requestLogLevel } from '../log-level.js'

/** Requests slower than this are logged at `warn` unless the app says otherwise (`slowRequestMs`). */
export const DEFAULT_SLOW_REQUEST_MS = 1000

/** One answered request, as the request log and the metrics see it. */
export interface RequestRecord {
  method: string
  /** The path as Hono reads it (percent-decoding of `decodeURI`, `%25` kept), without the query. */
  path: string
  status: number
  /** Time from the request's arrival to its answer, in ms. */
  elapsedMs: number
  requestId: string
  botId: string | null
  /** The metrics' operation label (`getFile`, `GET /health`). */
  operation: string
  /** Bytes of the request body from its Content-Length (0 when absent). */
  bytesIn: number
  /** Bytes of the response body when known up front; `undefined` when they are counted as they leave. */
  bytesOut: number | undefined
}

/**
 * Step 7 of the request pipeline: writes the one request log line (`{ msg: 'request', method, path, status, ms, requestId, botId }`; at `error` for a
 * 5xx, `warn` when slow, `info` otherwise) and counts the request in the metrics. Both answer paths call it: the
 * request context of the Hono app and the direct lane of hot reads, so a request is logged and counted alike
 * whichever path answered it.
 *
 * @example
 * ```ts
 * recordRequest(services, { method: 'GET', path: '/v1/files/a.txt', status: 200, elapsedMs: 0.8, requestId, botId, operation: 'getFile', bytesIn: 0, bytesOut: 512 })
 * ```
 */
export function recordRequest(services: AppServices, record: RequestRecord): void {
  const ms = Math.round(record.elapsedMs * 10) / 10
  const { status } = record
  services.logger.log(requestLogLevel(status, ms, services.slowRequestMs ?? DEFAULT_SLOW_REQUEST_MS), 'request', {
    method: record.method,
    path: record.path,
    status,
    ms,
    requestId: record.requestId,
    botId: record.botId,
  })
  const metrics = services.metrics
  if (!metrics) return
  metrics.observeRequest({ operation: record.operation, status, seconds: record.elapsedMs / 1000, bytesIn: record.bytesIn, bytesOut: 0 })
  if (record.bytesOut !== undefined && record.method !== 'HEAD') metrics.observeResponseBytes(record.operation, record.bytesOut)
}

/**
 * A request's Content-Length as a byte count (0 when absent or not a whole number).
 *
 * @example
 * ```ts
 * declaredLength('512') // 512
 * declaredLength(undefined) // 0
 * ```
 */
export function declaredLength(header: string | null | undefined): number {
  const value = Number(header ?? 0)
  return Number.isSafeInteger(value) && value > 0 ? value : 0
}
