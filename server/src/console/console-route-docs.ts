import type { RawRoute } from '../http/openapi/raw-route.js'

const notBuilt = { description: '`ResourceNotFound`: the console is not built, or no such asset.', body: 'error' } as const

/**
 * The OpenAPI descriptions of the console's static routes (`consoleRoutes`).
 *
 * @example
 * ```ts
 * for (const route of consoleRouteDocs) describeRawRoute(router, route)
 * ```
 */
export const consoleRouteDocs: ReadonlyArray<RawRoute> = [
  {
    methods: ['GET', 'HEAD'],
    path: '/console',
    operationId: 'consoleRedirect',
    summary: 'Redirects to /console/',
    description: 'No token needed.',
    parameters: [],
    responses: { 308: { description: 'To `/console/`.', body: 'none', headers: { Location: '`/console/`' } } },
  },
  {
    methods: ['GET', 'HEAD'],
    path: '/console/',
    operationId: 'getConsolePage',
    summary: 'The web console (an HTML page; sign-in happens in the page)',
    description: "No token needed. Served with a strict Content-Security-Policy (`default-src 'self'`, no inline script), `nosniff`, `no-cache` and an ETag.",
    parameters: [],
    responses: { 200: { description: 'The page.', body: 'bytes' }, 304: { description: 'Not modified.', body: 'none' }, 404: notBuilt },
  },
  {
    methods: ['GET', 'HEAD'],
    path: '/console/assets/{name}',
    operationId: 'getConsoleAsset',
    summary: "A content-hashed script or stylesheet of the console, cached as immutable",
    description: 'No token needed.',
    parameters: [{ name: 'name', in: 'path', required: true, description: 'The asset name, as index.html names it (`app-<hash>.js`).' }],
    responses: { 200: { description: 'The asset.', body: 'bytes' }, 404: notBuilt },
  },
]
