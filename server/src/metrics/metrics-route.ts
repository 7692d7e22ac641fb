import { Hono } from 'hono'
import type { AppEnv, AppServices } from '../http/env.js'
import type { RawRoute } from '../http/openapi/raw-route.js'
import { registerRoute } from '../http/register-route.js'
import { errorResponse, toServiceError } from '../http/error-handler.js'
import { ServiceError } from '../http/service-error.js'
import { checkMetricsAccess } from './metrics-access.js'
import type { ServiceMetrics } from './service-metrics.js'

const metricsRoute: RawRoute = {
  methods: ['GET'],
  path: '/metrics',
  operationId: 'getMetrics',
  summary: 'Prometheus metrics of the service',
  description:
    'The Prometheus text format (requests by operation and status, latency, bytes, jobs, database and blob errors). ' +
    'Needs `Authorization: Bearer <token>` with a workspace administrator token (`botshelf token create --workspace --role administrator`); no `x-bot-id`.',
  parameters: [{ name: 'Authorization', in: 'header', required: true, description: '`Bearer <workspace administrator token>`.' }],
  responses: {
    200: { description: 'The metrics, as `text/plain; version=0.0.4`.', body: 'bytes' },
    401: { description: '`Unauthorized`: no token, or an unknown or revoked one.', body: 'error' },
    403: { description: '`Forbidden`: the token is not a workspace administrator token.', body: 'error' },
  },
}

/**
 * `GET /metrics` on the service's port: the Prometheus text, for a workspace administrator token.
 *
 * @example
 * ```ts
 * hono.route('/', metricsRoutes(metrics))
 * ```
 */
export function metricsRoutes(metrics: ServiceMetrics): Hono<AppEnv> {
  const routes = new Hono<AppEnv>()
  registerRoute(routes, {
    docs: metricsRoute,
    handle: async (c) => {
      await checkMetricsAccess(c.get('services').backend.auth, c.req.header('authorization'))
      return c.body(await metrics.render(), 200, { 'content-type': metrics.contentType })
    },
  })
  return routes
}

/**
 * A fetch handler serving only `GET /metrics` (same access rule), for a separate metrics port: any other path
 * is 404, any other method 405. Errors are wire error bodies.
 *
 * @example
 * ```ts
 * const handle = metricsFetchHandler(app.services, metrics)
 * const response = await handle(new Request('http://local/metrics', { headers: { authorization: `Bearer ${admin}` } }))
 * ```
 */
export function metricsFetchHandler(services: AppServices, metrics: ServiceMetrics): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      const { pathname } = new URL(request.url)
      if (pathname !== '/metrics') return errorResponse(new ServiceError('ResourceNotFound', `No route for ${request.method} ${pathname}: this port serves GET /metrics only`), services.now())
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return errorResponse(new ServiceError('MethodNotFound', `Method ${request.method} is not allowed on /metrics; allowed: GET`, { allowed: ['GET'] }), services.now(), { allow: 'GET' })
      }
      await checkMetricsAccess(services.backend.auth, request.headers.get('authorization'))
      return new Response(await metrics.render(), { status: 200, headers: { 'content-type': metrics.contentType } })
    } catch (error) {
      return errorResponse(toServiceError(error), services.now())
    }
  }
}
