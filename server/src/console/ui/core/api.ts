import { Client, errorFrom } from 'botshelf/client'
import type { BotSummary, Identity } from './identity.js'

/** A token as `/v1/admin/tokens` lists it (never its secret). */
export interface TokenRow {
  id: string
  scope: 'bot' | 'workspace'
  botId: string | null
  workspaceId: string | null
  role: string
  integrationName: string | null
  userId: string | null
  label: string | null
  createdAt: string
  revokedAt: string | null
}

/** What `POST /v1/admin/tokens` takes. */
export type NewToken =
  | { workspace: true; role: string; label?: string }
  | { botId: string; role: string; integrationName?: string; label?: string }

async function send<T>(method: string, path: string, token: string | undefined, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {}
  if (token) headers['authorization'] = `Bearer ${token}`
  if (body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) })
  const text = await response.text()
  let parsed: unknown
  try {
    parsed = text ? JSON.parse(text) : {}
  } catch {
    parsed = { code: response.status, type: 'Unknown', message: text.slice(0, 300) || response.statusText }
  }
  if (!response.ok) throw errorFrom(parsed)
  return parsed as T
}

/**
 * Redeems the one-time code of a sign-in link for a workspace administrator token.
 *
 * @example
 * ```ts
 * const { token } = await redeemSignInCode('abc')
 * ```
 */
export function redeemSignInCode(code: string): Promise<{ token: string; tokenId: string; bots: BotSummary[] }> {
  return send('POST', '/v1/console/sign-in', undefined, { code })
}

/**
 * Who a token is (`GET /v1/whoami`); rejects with the service's `Unauthorized` for an unknown token.
 *
 * @example
 * ```ts
 * const me = await whoami('bs_...')
 * ```
 */
export function whoami(token: string): Promise<Identity> {
  return send('GET', '/v1/whoami', token)
}

/**
 * The console's view of the service for one signed-in token and bot: botshelf's own client for the Files and
 * Tables APIs, and the admin routes.
 *
 * @example
 * ```ts
 * const api = new ConsoleApi('bs_...', 'bot-id')
 * await api.client.listFiles({})
 * ```
 */
export class ConsoleApi {
  readonly client: Client

  constructor(
    readonly token: string,
    readonly botId: string,
  ) {
    this.client = new Client({ apiUrl: location.origin, token, botId, timeout: 120_000 })
  }

  /** `GET /v1/admin/tokens` (`all` lists revoked ones too). @example `await api.listTokens(true)` */
  async listTokens(all: boolean): Promise<TokenRow[]> {
    return (await send<{ tokens: TokenRow[] }>('GET', `/v1/admin/tokens${all ? '?all=true' : ''}`, this.token)).tokens
  }

  /** `POST /v1/admin/tokens`: the new token with its secret, shown once. @example `await api.createToken({ botId, role: 'viewer' })` */
  async createToken(input: NewToken): Promise<TokenRow & { token: string }> {
    return (await send<{ token: TokenRow & { token: string } }>('POST', '/v1/admin/tokens', this.token, input)).token
  }

  /** `DELETE /v1/admin/tokens/{id}`. @example `await api.revokeToken('tok_1')` */
  async revokeToken(id: string): Promise<TokenRow> {
    return (await send<{ token: TokenRow }>('DELETE', `/v1/admin/tokens/${encodeURIComponent(id)}`, this.token)).token
  }

  /** `GET /v1/admin/bots`. @example `await api.listBots()` */
  async listBots(): Promise<BotSummary[]> {
    return (await send<{ bots: BotSummary[] }>('GET', '/v1/admin/bots', this.token)).bots
  }

  /** `POST /v1/admin/bots`. @example `await api.createBot('sales')` */
  async createBot(name: string): Promise<BotSummary> {
    return (await send<{ bot: BotSummary }>('POST', '/v1/admin/bots', this.token, name ? { name } : {})).bot
  }
}
