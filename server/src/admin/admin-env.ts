import type { AppEnv } from '../http/env.js'
import type { TokenIdentity } from './identify-token.js'

/**
 * Hono environment of the routes that name no bot: the app's, plus the identity `tokenAuth` found.
 *
 * @example
 * ```ts
 * const router = new Hono<AdminEnv>()
 * router.get('/v1/whoami', (c) => c.json({ scope: c.get('tokenIdentity').scope }))
 * ```
 */
export type AdminEnv = {
  Bindings: AppEnv['Bindings']
  Variables: AppEnv['Variables'] & { tokenIdentity: TokenIdentity }
}
