import type { Principal } from 'botshelf/api'
import type { AuthPort, BotRecord, TokenScope } from '../store/index.js'

/** Who a bearer token stands for, found without an `x-bot-id`: its principal, scope and the bots it reaches. */
export interface TokenIdentity {
  /** The principal of the token on the first bot it reaches (its `botId` is that bot). */
  readonly principal: Principal
  readonly scope: TokenScope
  /** Every bot the token reaches: its own bot, or every bot of the workspace for a workspace token. */
  readonly bots: ReadonlyArray<BotRecord>
}

/**
 * Identifies a token on the routes that name no bot (`/v1/whoami`, `/v1/admin/*`). The auth port checks a token
 * against one bot, so this tries the workspace's bots in order and stops at the first the token reaches: a
 * workspace token answers on the first, a bot token on its own. `undefined` for an unknown or revoked token, and
 * for any token while the workspace has no bot at all (nothing to check it against).
 *
 * @example
 * ```ts
 * const identity = await identifyToken(backend.auth, 'bs_...')
 * if (identity?.scope === 'workspace') console.log(identity.bots.length)
 * ```
 */
export async function identifyToken(auth: AuthPort, token: string): Promise<TokenIdentity | undefined> {
  const bots = await auth.listBots()
  for (const bot of bots) {
    const check = await auth.authenticate(token, bot.id)
    if (check.ok) return { principal: check.principal, scope: check.scope, bots: check.scope === 'workspace' ? bots : [bot] }
    if (check.reason === 'unknown_token') return undefined
  }
  return undefined
}
