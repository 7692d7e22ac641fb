import type { IncomingMessage } from 'node:http'
import { BoundedMap } from 'botshelf/api'

/** Origins of the Host values seen lately (`null`: a Host the Hono path refuses); cleared when full. */
const origins = new BoundedMap<string, string | null>(256, 'clear')

/**
 * The origin of a node:http request as the Hono app reads it (`http://host[:port]`, normalized by the URL parser), or
 * `undefined` when the request has no `Host` or one that @hono/node-server refuses (its hostname does not survive
 * URL parsing unchanged). Remembered per Host value: a server sees few.
 *
 * @example
 * ```ts
 * requestOrigin(incoming) // 'http://127.0.0.1:3000'
 * ```
 */
export function requestOrigin(incoming: IncomingMessage): string | undefined {
  const host = incoming.headers.host
  if (!host) return undefined
  const scheme = (incoming.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'
  const key = `${scheme}://${host}`
  let origin = origins.get(key)
  if (origin === undefined) {
    origin = originOf(scheme, host)
    origins.set(key, origin)
  }
  return origin ?? undefined
}

/** The same check as @hono/node-server's: a Host whose hostname the URL parser changes is refused. */
function originOf(scheme: string, host: string): string | null {
  try {
    const url = new URL(`${scheme}://${host}/`)
    if (url.hostname.length !== host.length && url.hostname !== host.replace(/:\d+$/, '')) return null
    return url.origin
  } catch {
    return null
  }
}
