import type { MiddlewareHandler } from 'hono'
import type { AuthStore } from '../../store/sqlite/auth-store.js'
import type { AppEnv } from '../env.js'
import { ServiceError } from '../service-error.js'
import { bearerToken } from './bearer.js'

/**
 * Authenticates every request it guards and puts the caller's `Principal` on the context.
 * Checks, in this order: a bearer token is present and known (else 401 `Unauthorized`), `x-bot-id` is
 * present (else 400 `InvalidPayload`), the token is bound to that bot (else 403 `Forbidden`).
 * Authentication comes first so an anonymous caller learns nothing about bots.
 *
 * @example
 * ```ts
 * app.use('/v1/*', authMiddleware(new AuthStore(db)))
 * ```
 */
export function authMiddleware(store: AuthStore): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = bearerToken(c.req.header('authorization'))
    if (!token) throw new ServiceError('Unauthorized', 'Missing bearer token: send "Authorization: Bearer <token>"')
    const botId = c.req.header('x-bot-id')?.trim()
    const check = store.authenticate(token, botId ?? '')
    if (!check.ok && check.reason === 'unknown_token') throw new ServiceError('Unauthorized', 'Unknown or revoked token')
    if (!botId) throw new ServiceError('InvalidPayload', 'Missing header x-bot-id: every call names the bot it acts for')
    if (!check.ok) throw new ServiceError('Forbidden', `This token has no access to bot "${botId}"`)
    c.set('principal', check.principal)
    await next()
  }
}
