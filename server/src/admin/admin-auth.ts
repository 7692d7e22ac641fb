import type { MiddlewareHandler } from 'hono'
import type { AuthPort } from '../store/index.js'
import { bearerToken } from '../http/auth/bearer.js'
import type { AdminEnv } from './admin-env.js'
import { ServiceError } from '../http/service-error.js'
import { identifyToken, type TokenIdentity } from './identify-token.js'

/**
 * Authenticates a route that names no bot: a known bearer token (else 401 `Unauthorized`, like every `/v1`
 * route); `x-bot-id` is not needed. The token's principal goes on the context (so the per-token rate limit
 * counts it) and the identity is handed to `check`, which may refuse with a 403.
 *
 * @example
 * ```ts
 * router.use('/v1/admin/*', tokenAuth(backend.auth, requireWorkspaceAdministrator))
 * ```
 */
export function tokenAuth(auth: AuthPort, check?: (identity: TokenIdentity) => void): MiddlewareHandler<AdminEnv> {
  return async (c, next) => {
    const token = bearerToken(c.req.header('authorization'))
    if (!token) throw new ServiceError('Unauthorized', 'Missing bearer token: send "Authorization: Bearer <token>"')
    const identity = await identifyToken(auth, token)
    if (!identity) throw new ServiceError('Unauthorized', 'Unknown or revoked token')
    check?.(identity)
    c.set('principal', identity.principal)
    c.set('tokenIdentity', identity)
    await next()
  }
}

/**
 * The rule of `/v1/admin/*`: a workspace member token with the `administrator` role (decision 1103). Bot tokens,
 * integration tokens and member tokens bound to one bot manage nothing.
 *
 * @example
 * ```ts
 * requireWorkspaceAdministrator(identity) // throws ServiceError('Forbidden', ...) unless a workspace administrator
 * ```
 */
export function requireWorkspaceAdministrator(identity: TokenIdentity): void {
  const { principal, scope } = identity
  if (scope === 'workspace' && principal.kind === 'member' && principal.role === 'administrator') return
  const what = principal.kind === 'member' ? `a ${scope} ${principal.role} token` : `a ${principal.kind} token`
  throw new ServiceError('Forbidden', `Managing bots and tokens takes a workspace administrator token; this is ${what}`)
}
