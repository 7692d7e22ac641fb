import type { AuthPort } from '../../store/index.js'
import { bearerToken } from '../auth/bearer.js'
import type { Principal } from '../principal.js'
import { ServiceError } from '../service-error.js'

/**
 * Step 2 of the request pipeline: the caller of a bot's route, from its `Authorization` and `x-bot-id` headers.
 * Throws, in this order: no bearer token, or an unknown one (401 `Unauthorized`), no `x-bot-id` (400
 * `InvalidPayload`), a token that does not reach that bot (403 `Forbidden`: a bot-bound token reaches only its own
 * bot, a workspace token every bot of its workspace; an unknown bot id is 403 too, decision 0208). Authentication
 * comes first so an anonymous caller learns nothing about bots.
 *
 * @example
 * ```ts
 * const principal = await authenticateCaller(backend.auth, 'Bearer bs_abc', 'bot_1') // { kind: 'bot', botId: 'bot_1', tokenId }
 * ```
 */
export async function authenticateCaller(auth: AuthPort, authorization: string | undefined, botIdHeader: string | undefined): Promise<Principal> {
  const token = bearerToken(authorization)
  if (!token) throw new ServiceError('Unauthorized', 'Missing bearer token: send "Authorization: Bearer <token>"')
  const botId = botIdHeader?.trim()
  const check = await auth.authenticate(token, botId ?? '')
  if (!check.ok && check.reason === 'unknown_token') throw new ServiceError('Unauthorized', 'Unknown or revoked token')
  if (!botId) throw new ServiceError('InvalidPayload', 'Missing header x-bot-id: every call names the bot it acts for')
  if (!check.ok) throw new ServiceError('Forbidden', forbiddenMessage(check.reason, botId))
  return check.principal
}

/**
 * Why a valid token may not act for a bot, for the 403 message.
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
