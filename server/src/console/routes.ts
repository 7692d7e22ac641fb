import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { Hono, type MiddlewareHandler } from 'hono'
import type { AppEnv } from '../http/env.js'
import { ServiceError } from '../http/service-error.js'
import { consoleSecurityHeaders } from './console-headers.js'
import type { RawRouteResponse } from '../http/openapi/raw-route.js'
import { registerRoute } from '../http/register-route.js'

/** Names the console build gives its assets: `app-<hash>.js`, `app-<hash>.css` (content hashes, decision 1101). */
const HASHED_ASSET = /^[a-z]+-[A-Z0-9]{8,}\.(js|css|map)$/i
const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json; charset=utf-8',
}

const notBuiltResponse: RawRouteResponse = { description: '`ResourceNotFound`: the console is not built, or no such asset.', body: 'error' }

/** Options of `consoleRoutes`. */
export interface ConsoleRoutesOptions {
  /**
   * The built console folder (`dist/console`: `index.html` and `assets/`); `undefined` when it was not built, so
   * `/console` answers 404 saying how to build it.
   *
   * @example
   * ```ts
   * { dir: findConsoleFolder() }
   * ```
   */
  readonly dir: string | undefined
  /**
   * The origin of `--public-url` when content URLs are built on it: the CSP lets previews load from it.
   *
   * @example
   * ```ts
   * { publicOrigin: 'https://files.example.com' }
   * ```
   */
  readonly publicOrigin?: string
  /**
   * A rate limit run before each console response (the per-address one).
   *
   * @example
   * ```ts
   * { limit: limiter.byAddress(() => true) }
   * ```
   */
  readonly limit?: MiddlewareHandler<AppEnv>
}

/**
 * Serves the web console at `/console`: `index.html` (revalidated on every load, `ETag`) and the content-hashed
 * assets under `/console/assets/` (cached for a year, immutable), each with the console's strict CSP and
 * `nosniff`. Nothing else is read from disk: asset names must look like the build's.
 *
 * @example
 * ```ts
 * hono.route('/', consoleRoutes({ dir: findConsoleFolder() }))
 * ```
 */
export function consoleRoutes(options: ConsoleRoutesOptions): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  const security = consoleSecurityHeaders(options.publicOrigin)
  const notBuilt = () => new ServiceError('ResourceNotFound', 'The web console is not built: run "npm run build" (it writes dist/console)')
  if (options.limit) router.use('/console', options.limit).use('/console/*', options.limit)

  registerRoute(router, {
    docs: {
      methods: ['GET', 'HEAD'],
      path: '/console',
      operationId: 'consoleRedirect',
      summary: 'Redirects to /console/',
      description: 'No token needed.',
      parameters: [],
      responses: { 308: { description: 'To `/console/`.', body: 'none', headers: { Location: '`/console/`' } } },
    },
    handle: (c) => c.redirect('/console/', 308),
  })
  registerRoute(router, {
    docs: {
      methods: ['GET', 'HEAD'],
      path: '/console/',
      operationId: 'getConsolePage',
      summary: 'The web console (an HTML page; sign-in happens in the page)',
      description: "No token needed. Served with a strict Content-Security-Policy (`default-src 'self'`, no inline script), `nosniff`, `no-cache` and an ETag.",
      parameters: [],
      responses: { 200: { description: 'The page.', body: 'bytes' }, 304: { description: 'Not modified.', body: 'none' }, 404: notBuiltResponse },
    },
    handle: async (c) => {
      if (!options.dir) throw notBuilt()
      let html: Buffer
      try {
        html = await readFile(`${options.dir}index.html`)
      } catch {
        throw notBuilt()
      }
      const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`
      const headers = { ...security, ETag: etag, 'Cache-Control': 'no-cache', 'Content-Type': 'text/html; charset=utf-8' }
      if (c.req.header('if-none-match') === etag) return new Response(null, { status: 304, headers })
      return new Response(new Uint8Array(html), { status: 200, headers })
    },
  })
  registerRoute(router, {
    docs: {
      methods: ['GET', 'HEAD'],
      path: '/console/assets/{name}',
      operationId: 'getConsoleAsset',
      summary: 'A content-hashed script or stylesheet of the console, cached as immutable',
      description: 'No token needed.',
      parameters: [{ name: 'name', in: 'path', required: true, description: 'The asset name, as index.html names it (`app-<hash>.js`).' }],
      responses: { 200: { description: 'The asset.', body: 'bytes' }, 404: notBuiltResponse },
    },
    handle: async (c) => {
      if (!options.dir) throw notBuilt()
      const name = c.req.param('name') ?? ''
      const extension = name.slice(name.lastIndexOf('.') + 1)
      if (!HASHED_ASSET.test(name) || !TYPES[extension]) throw new ServiceError('ResourceNotFound', `No console asset named "${name}"`)
      let body: Buffer
      try {
        body = await readFile(`${options.dir}assets/${name}`)
      } catch {
        throw new ServiceError('ResourceNotFound', `No console asset named "${name}": the page may be from an older build, reload it`)
      }
      return new Response(new Uint8Array(body), {
        status: 200,
        headers: { ...security, 'Cache-Control': 'public, max-age=31536000, immutable', 'Content-Type': TYPES[extension]! },
      })
    },
  })
  return router
}
