import type { BotRecord, CreateTokenInput, CreatedToken, TokenCheck, TokenRecord } from './types.js'

/**
 * The auth port: the workspace, its bots, their hashed tokens and the service's signing key. Every method is
 * async so that a network database can implement it; each call is atomic on its own, and several calls are
 * atomic together inside `backend.transaction`.
 *
 * @example
 * ```ts
 * const bot = await backend.auth.createBot({ name: 'support' })
 * const { token } = await backend.auth.createToken({ botId: bot.id, role: 'bot' })
 * const check = await backend.auth.authenticate(token, bot.id) // { ok: true, principal, scope: 'bot' }
 * ```
 */
export interface AuthPort {
  /** The workspace id, creating the single workspace on first call. */
  ensureWorkspace(): Promise<string>
  /** Creates a bot in the workspace (a UUID id unless given). */
  createBot(input?: { name?: string; id?: string }): Promise<BotRecord>
  /** Every bot, oldest first. */
  listBots(): Promise<BotRecord[]>
  /** A bot by id. */
  getBot(id: string): Promise<BotRecord | undefined>
  /** Creates a token; the secret is in the result only, the store keeps its SHA-256. Throws `AuthStoreError` on bad input. */
  createToken(input: CreateTokenInput): Promise<CreatedToken>
  /** Tokens without secrets; `botId` keeps those that reach that bot. */
  listTokens(filter?: { botId?: string; activeOnly?: boolean }): Promise<TokenRecord[]>
  /** Revokes a token; throws `AuthStoreError('UNKNOWN_TOKEN')` for an unknown id. */
  revokeToken(id: string): Promise<TokenRecord>
  /** Checks a bearer token against the bot named by `x-bot-id`. */
  authenticate(token: string, botId: string): Promise<TokenCheck>
  /**
   * The secret of signed URLs and cursors (32 bytes), shared by every server on the dataset. Created on first
   * call from `seed` when given (an older data folder's key file, so its URLs stay valid), random otherwise.
   */
  signingKey(seed?: Buffer): Promise<Buffer>
}
