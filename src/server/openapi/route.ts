import { Hono } from 'hono'
import type { Operation } from '../../api/operation.js'
import type { AppEnv } from '../env.js'
import { publicBaseUrl } from '../http/public-url.js'
import { buildOpenApiDocument } from './document.js'
import { packageVersion } from '../package-version.js'

/**
 * The unauthenticated `GET /v1/openapi.json` route. `operations` is read on each request so every route
 * registered before the first call is listed.
 *
 * @example
 * ```ts
 * app.route('/', openApiRoutes(() => features.flatMap((f) => registeredOperations(f.routes))))
 * ```
 */
export function openApiRoutes(operations: () => ReadonlyArray<Operation>): Hono<AppEnv> {
  const routes = new Hono<AppEnv>()
  const version = packageVersion()
  routes.get('/v1/openapi.json', (c) => c.json(buildOpenApiDocument(operations(), { version, serverUrl: publicBaseUrl(c) })))
  return routes
}
