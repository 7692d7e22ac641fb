import type { Context, Hono } from 'hono'
import type { AppEnv } from './env.js'
import { ServiceError } from './service-error.js'
import { handleError } from './error-handler.js'

function patternToRegExp(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) return '[^/]+'
      if (segment === '*') return '.*'
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    })
    .join('/')
  return new RegExp(`^${source}/?$`)
}

/**
 * Makes the answer for a request no route handled, as the wire error body: `MethodNotFound` (405) when the path
 * exists with other methods (`metadata.allowed` and the `Allow` header list them), otherwise `ResourceNotFound`
 * (404). Reads the app's route table at call time, so routes mounted later count. It returns the answer rather
 * than throwing it: Hono calls this handler outside the error handling of the middleware chain.
 *
 * @example
 * ```ts
 * app.notFound(notFoundHandler(app))
 * ```
 */
export function notFoundHandler(app: Hono<AppEnv>): (c: Context<AppEnv>) => Response {
  return (c) => {
    const path = c.req.path
    const methods = new Set<string>()
    for (const route of app.routes) {
      if (route.method === 'ALL') continue
      if (patternToRegExp(route.path).test(path)) methods.add(route.method)
    }
    if (methods.size > 0) {
      const allowed = [...methods].sort()
      // `Allow` is given at construction: set afterwards on @hono/node-server's Response, it was lost on the wire.
      return handleError(new ServiceError('MethodNotFound', `Method ${c.req.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`, { allowed }), c, { allow: allowed.join(', ') })
    }
    return handleError(new ServiceError('ResourceNotFound', `No route for ${c.req.method} ${path}`), c)
  }
}
