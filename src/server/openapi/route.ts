import { Hono } from 'hono'
import type { Operation } from '../../api/operation.js'
import type { AppEnv } from '../env.js'
import { publicBaseUrl } from '../http/public-url.js'
import { buildOpenApiDocument } from './document.js'
import type { RawRoute } from './raw-route.js'
import { packageVersion } from '../package-version.js'

/**
 * The unauthenticated `GET /v1/openapi.json` route. `operations` is read on each request so every route
 * registered before the first call is listed; `rawRoutes` (optional) lists the described routes that are not
 * operations (signed content URLs).
 *
 * @example
 * ```ts
 * app.route('/', openApiRoutes(() => features.flatMap((f) => registeredOperations(f.routes)), () => describedRawRoutes(contentRoutes)))
 * ```
 */
export function openApiRoutes(operations: () => ReadonlyArray<Operation>, rawRoutes: () => ReadonlyArray<RawRoute> = () => []): Hono<AppEnv> {
  const routes = new Hono<AppEnv>()
  const version = packageVersion()
  routes.get('/v1/openapi.json', (c) => c.json(buildOpenApiDocument(operations(), { version, serverUrl: publicBaseUrl(c), rawRoutes: rawRoutes() })))
  return routes
}
