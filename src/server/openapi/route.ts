import { createRequire } from 'node:module'
import { Hono } from 'hono'
import type { Operation } from '../../api/operation.js'
import type { AppEnv } from '../env.js'
import { publicBaseUrl } from '../http/public-url.js'
import { buildOpenApiDocument } from './document.js'

function packageVersion(): string {
  try {
    return (createRequire(import.meta.url)('../../../package.json') as { version: string }).version
  } catch {
    return '0.0.0'
  }
}

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
