import type { MiddlewareHandler } from 'hono'
import type { AuthPort } from '../../store/index.js'
import type { AppEnv } from '../env.js'
import { ServiceError } from '../service-error.js'
import { bearerToken } from './bearer.js'

/**
 * Authenticates every request it guards and puts the caller's `Principal` on the context.
 * Checks, in this order: a bearer token is present and known (else 401 `Unauthorized`), `x-bot-id` is
 * present (else 400 `InvalidPayload`), the token reaches that bot (else 403 `Forbidden`): a bot-bound token
 * only its own bot, a workspace token every bot of its workspace (an unknown bot id is 403 too, decision 0208).
 * Authentication comes first so an anonymous caller learns nothing about bots.
 *
 * @example
 * ```ts
 * app.use('/v1/*', authMiddleware(backend.auth))
 * ```
 */
export function authMiddleware(auth: AuthPort): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = bearerToken(c.req.header('authorization'))
    if (!token) throw new ServiceError('Unauthorized', 'Missing bearer token: send "Authorization: Bearer <token>"')
    const botId = c.req.header('x-bot-id')?.trim()
    const check = await auth.authenticate(token, botId ?? '')
    if (!check.ok && check.reason === 'unknown_token') throw new ServiceError('Unauthorized', 'Unknown or revoked token')
    if (!botId) throw new ServiceError('InvalidPayload', 'Missing header x-bot-id: every call names the bot it acts for')
    if (!check.ok) throw new ServiceError('Forbidden', forbiddenMessage(check.reason, botId))
    c.set('principal', check.principal)
    await next()
  }
}

/**
 * Why a valid token may not act for a bot, for the 403 message (shared with copyFile's destination check).
 *
 * @example
 * ```ts
 * forbiddenMessage('wrong_bot', 'b2') // 'This token has no access to bot "b2": it is bound to another bot'
 * ```
 */
export function forbiddenMessage(reason: 'wrong_bot' | 'unknown_bot' | 'unknown_token', botId: string): string {
  if (reason === 'unknown_bot') return `This token has no access to bot "${botId}": no bot with that id in its workspace`
  return `This token has no access to bot "${botId}": it is bound to another bot`
}
