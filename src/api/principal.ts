// Who is calling and with which role: shared by the server (auth, permissions) and the store (tokens).
/**
 * Workspace member roles (docs/wire-format.md §6). `bot` and `integration` are not roles but token kinds.
 */
export const memberRoles = ['viewer', 'developer', 'manager', 'administrator', 'billing_manager'] as const

/** A workspace member role. */
export type MemberRole = (typeof memberRoles)[number]

/** Every kind of token `botshelf token create --role` accepts. */
export const tokenRoles = ['bot', 'integration', ...memberRoles] as const

/** A token role. */
export type TokenRole = (typeof tokenRoles)[number]

/**
 * Who is calling, resolved from the bearer token and `x-bot-id` by the auth middleware.
 * Every route reads it from the Hono context: `c.get('principal')`.
 */
export type Principal =
  | { kind: 'bot'; botId: string; tokenId: string }
  | { kind: 'integration'; botId: string; integrationName: string; tokenId: string }
  | { kind: 'member'; botId: string; role: MemberRole; userId: string; tokenId: string }
