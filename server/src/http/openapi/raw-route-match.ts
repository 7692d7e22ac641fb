import type { RawRoute } from './raw-route.js'

/**
 * Finds the raw route a request path belongs to, by the routes' OpenAPI templates (`{fileId}` matches one
 * segment). The app uses it to tell the routes without a token (rate limited per IP address) and the routes
 * that stream their body (which keep the long request timeout) from the rest.
 *
 * @example
 * ```ts
 * const match = rawRouteMatcher([uploadContentRoute, healthRoute])
 * match('/v1/content/upload/file_01') // uploadContentRoute
 * match('/v1/files') // undefined
 * ```
 */
export function rawRouteMatcher(routes: ReadonlyArray<RawRoute>): (path: string) => RawRoute | undefined {
  const exact = new Map<string, RawRoute>()
  const templated: Array<{ pattern: RegExp; route: RawRoute }> = []
  for (const route of routes) {
    if (!route.path.includes('{')) {
      if (!exact.has(route.path)) exact.set(route.path, route)
      continue
    }
    const source = route.path
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('')
    templated.push({ pattern: new RegExp(`^${source}$`), route })
  }
  return (path) => exact.get(path) ?? templated.find((entry) => entry.pattern.test(path))?.route
}
