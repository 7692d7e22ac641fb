import type { MemberRole, Principal, TokenRole } from 'botshelf/api'

/** A bot of the workspace. */
export interface BotRecord {
  id: string
  workspaceId: string
  name: string
  createdAt: string
}

/**
 * What a token reaches: `bot` = the one bot in `botId`; `workspace` = every bot of the workspace in
 * `workspaceId`, named per request by `x-bot-id` (member roles only, decision 0208).
 */
export type TokenScope = 'bot' | 'workspace'

/** A token as listed: never the secret, only its id, binding and state. */
export interface TokenRecord {
  id: string
  /** `bot`: bound to `botId`; `workspace`: reaches every bot of `workspaceId`. */
  scope: TokenScope
  /** The bot of a bot-bound token; `null` for a workspace token. */
  botId: string | null
  /** The workspace of a workspace token; `null` for a bot-bound token. */
  workspaceId: string | null
  role: TokenRole
  /** Set for `integration` tokens: the integration the token acts as. */
  integrationName: string | null
  /** Set for member tokens: the user the token stands for. */
  userId: string | null
  label: string | null
  createdAt: string
  revokedAt: string | null
}

/** A token just created: the record plus the secret, shown once. */
export interface CreatedToken extends TokenRecord {
  /** `bs_` + base64url(32 random bytes). Only its SHA-256 hash is stored. */
  token: string
}

/** Input of `createToken` for a token bound to one bot (every role). */
export interface BotTokenInput {
  botId: string
  role: TokenRole
  /** Required for (and only for) the `integration` role. */
  integrationName?: string
  label?: string
  workspace?: false
}

/** Input of `createToken` for a workspace-wide member token: it reaches every bot of the workspace. */
export interface WorkspaceTokenInput {
  workspace: true
  /** A member role only: `bot` and `integration` tokens always act for one bot. */
  role: MemberRole
  label?: string
  botId?: undefined
  integrationName?: undefined
}

/** Input of `createToken`: bound to one bot (`botId`) or to the workspace (`workspace: true`). */
export type CreateTokenInput = BotTokenInput | WorkspaceTokenInput

/**
 * Outcome of checking a bearer token against a bot: `unknown_token` (unknown or revoked), `wrong_bot` (a
 * bot-bound token of another bot), `unknown_bot` (a workspace token, but no such bot in its workspace).
 */
export type TokenCheck =
  | { ok: true; principal: Principal; scope: TokenScope }
  | { ok: false; reason: 'unknown_token' | 'wrong_bot' | 'unknown_bot' }

