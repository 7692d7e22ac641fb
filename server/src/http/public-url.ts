import type { Context } from 'hono'
import type { AppEnv } from './env.js'

/**
 * The base of absolute URLs the service hands out (`uploadUrl`, `url`): the app's `publicUrl` option when
 * set, otherwise the origin of the current request. No trailing slash.
 *
 * @example
 * ```ts
 * const uploadUrl = `${publicBaseUrl(c)}/content/upload/${token}`
 * ```
 */
export function publicBaseUrl(c: Context<AppEnv>): string {
  const configured = c.get('services').publicUrl
  const base = configured ?? new URL(c.req.url).origin
  return base.replace(/\/+$/, '')
}
