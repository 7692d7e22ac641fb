import { useEffect, useState } from 'preact/hooks'

/** A page of the console, read from the URL fragment (`#/files`, `#/tables/ordersTable`). */
export type Route =
  | { page: 'files'; fileId?: string }
  | { page: 'tables'; table?: string }
  | { page: 'tokens' }
  | { page: 'search' }
  | { page: 'webhooks'; webhookId?: string }

/**
 * Reads a fragment into a route; anything unknown is the files page.
 *
 * @example
 * ```ts
 * parseRoute('#/tables/ordersTable') // { page: 'tables', table: 'ordersTable' }
 * ```
 */
export function parseRoute(hash: string): Route {
  const [page, ...rest] = hash.replace(/^#\/?/, '').split('/')
  const arg = rest.length > 0 ? decodeURIComponent(rest.join('/')) : undefined
  if (page === 'tables') return arg ? { page: 'tables', table: arg } : { page: 'tables' }
  if (page === 'tokens') return { page: 'tokens' }
  if (page === 'search') return { page: 'search' }
  if (page === 'webhooks') return arg ? { page: 'webhooks', webhookId: arg } : { page: 'webhooks' }
  return arg ? { page: 'files', fileId: arg } : { page: 'files' }
}

/**
 * The fragment of a route.
 *
 * @example
 * ```ts
 * routeHref({ page: 'files', fileId: 'f 1' }) // '#/files/f%201'
 * ```
 */
export function routeHref(route: Route): string {
  if (route.page === 'files') return route.fileId ? `#/files/${encodeURIComponent(route.fileId)}` : '#/files'
  if (route.page === 'tables') return route.table ? `#/tables/${encodeURIComponent(route.table)}` : '#/tables'
  if (route.page === 'webhooks') return route.webhookId ? `#/webhooks/${encodeURIComponent(route.webhookId)}` : '#/webhooks'
  return `#/${route.page}`
}

/** The current route, following `hashchange`. @example `const route = useRoute()` */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash))
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash))
    addEventListener('hashchange', onChange)
    return () => removeEventListener('hashchange', onChange)
  }, [])
  return route
}
