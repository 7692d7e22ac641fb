import { Hono } from 'hono'
import type { AppEnv } from '../env.js'
import { ServiceError } from '../service-error.js'

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
export function metaRoutes(version: string): Hono<AppEnv> {
  const routes = new Hono<AppEnv>()
  routes.get('/', (c) => c.json({ name: 'botshelf', version, openapi: '/v1/openapi.json' }))
  routes.get('/health', (c) => {
    const { db } = c.get('services')
    if (db.prepare('SELECT 1').pluck().get() !== 1) throw new ServiceError('Internal', 'The database did not answer')
    return c.json({ status: 'ok' })
  })
  return routes
}
