import { Hono } from 'hono'
import type { AppEnv } from './env.js'
import type { RawRoute } from './openapi/raw-route.js'
import { registerRoute } from './register-route.js'
import { ServiceError } from './service-error.js'
import { jsonAnswer } from './json-answer.js'

/**
 * Unauthenticated routes for operators: `GET /` names the service and points to the OpenAPI document;
 * `GET /health` answers `{ status: 'ok' }` once a query on the database succeeds (a failing database is a
 * logged 500, which load balancers treat as down).
 *
 * @example
 * ```ts
 * app.route('/', metaRoutes('0.1.0'))
 * ```
 */
const serviceInfoRoute: RawRoute = {
  methods: ['GET', 'HEAD'],
  path: '/',
  operationId: 'getServiceInfo',
  summary: 'Name and version of the service, and where its OpenAPI document is',
  description: 'No token needed.',
  parameters: [],
  responses: {
    200: {
      description: 'The service.',
      body: 'json',
      schema: {
        type: 'object',
        properties: { name: { const: 'botshelf' }, version: { type: 'string' }, openapi: { const: '/v1/openapi.json' } },
        required: ['name', 'version', 'openapi'],
      },
    },
  },
}

const healthRoute: RawRoute = {
  methods: ['GET', 'HEAD'],
  path: '/health',
  operationId: 'getHealth',
  summary: 'Liveness and readiness probe',
  description: 'No token needed. Answers once a query on the database succeeds.',
  parameters: [],
  responses: {
    200: { description: 'Healthy.', body: 'json', schema: { type: 'object', properties: { status: { const: 'ok' } }, required: ['status'] } },
    500: { description: '`Internal`: the database did not answer.', body: 'error' },
  },
}

export function metaRoutes(version: string): Hono<AppEnv> {
  const routes = new Hono<AppEnv>()
  registerRoute(routes, { docs: serviceInfoRoute, handle: (c) => jsonAnswer(c, { name: 'botshelf', version, openapi: '/v1/openapi.json' }) })
  registerRoute(routes, {
    docs: healthRoute,
    handle: async (c) => {
      const { backend } = c.get('services')
      try {
        await backend.ping()
      } catch {
        throw new ServiceError('Internal', 'The database did not answer')
      }
      return jsonAnswer(c, { status: 'ok' })
    },
  })
  return routes
}
