import { Hono } from 'hono'
import type { Operation } from 'botshelf/api'
import type { AppEnv } from '../env.js'
import { publicBaseUrl } from '../public-url.js'
import { jsonAnswer } from '../json-answer.js'
import { buildOpenApiDocument } from './document.js'
import type { RawRoute } from './raw-route.js'
import { registerRoute } from '../register-route.js'
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
  registerRoute(routes, {
    docs: {
      methods: ['GET', 'HEAD'],
      path: '/v1/openapi.json',
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI document',
      description: 'No token needed; generated from the registered operations and described routes.',
      parameters: [],
      responses: { 200: { description: 'The OpenAPI 3.1 document.', body: 'json', schema: { type: 'object' } } },
    },
    handle: (c) => jsonAnswer(c, buildOpenApiDocument(operations(), { version, serverUrl: publicBaseUrl(c), rawRoutes: rawRoutes() })),
  })
  return routes
}
