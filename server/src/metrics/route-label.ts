import type { Context } from 'hono'
import { matchedRoutes } from 'hono/route'
import type { AppEnv } from '../http/env.js'

/**
 * The `operation` label of a request: the operation's name on the API routes (`listFiles`), else the method and
 * route pattern that answered (`GET /health`, `PUT /files/:id/content`), else `unmatched`. Patterns, never
 * raw paths, so the number of label values stays bounded.
 *
 * @example
 * ```ts
 * metrics.observeRequest({ operation: routeLabel(c), ... })
 * ```
 */
export function routeLabel(c: Context<AppEnv>): string {
  const operation = c.get('operation')
  if (operation) return operation
  const routes = matchedRoutes(c)
  for (let i = routes.length - 1; i >= 0; i--) {
    const route = routes[i]!
    if (route.method !== 'ALL' && route.path !== '/*') return `${route.method} ${route.path}`
  }
  return 'unmatched'
}
