import { createHash, randomBytes } from 'node:crypto'
import { memberRoles, tokenRoles, type MemberRole } from 'botshelf/api'
import { AuthStoreError } from './errors.js'
import type { CreateTokenInput, CreatedToken, TokenCheck, TokenRecord } from './types.js'

const INTEGRATION_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_\-./]{0,99}$/

/**
 * The hash a store keeps of a token: hex SHA-256 of the whole token string (the secret itself is never stored).
 *
 * @example
 * ```ts
 * hashToken('bs_abc') // '5f0c...'
 * ```
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

/**
 * Checks a `createToken` input the same way on every backend, before any lookup: the role, the scope (a bot or
 * the workspace, never both), the integration name. Throws `AuthStoreError` naming the field; whether the bot
 * exists is the store's part.
 *
 * @example
 * ```ts
 * checkTokenInput({ botId, role: 'integration', integrationName: 'slack' }) // passes
 * checkTokenInput({ workspace: true, role: 'bot' } as never) // throws invalid_role
 * ```
 */
export function checkTokenInput(input: CreateTokenInput): void {
  if (!(tokenRoles as readonly string[]).includes(input.role)) {
    throw new AuthStoreError('INVALID_ROLE', `Unknown role "${String(input.role)}"; expected one of ${tokenRoles.join(', ')}`)
  }
  if (input.workspace === true) {
    if (!(memberRoles as readonly string[]).includes(input.role)) {
      throw new AuthStoreError(
        'INVALID_ROLE',
        `A workspace token takes a member role (${memberRoles.join(', ')}); received "${String(input.role)}". ` +
          'Bot and integration tokens act for one bot: create them with a bot id instead',
      )
    }
    // Typed out, but a caller without types (the CLI, JavaScript) can still send them.
    const loose = input as { botId?: unknown; integrationName?: unknown }
    if (loose.botId !== undefined) {
      throw new AuthStoreError('INVALID_SCOPE', `A workspace token is not bound to a bot; received botId ${JSON.stringify(loose.botId)} with workspace: true`)
    }
    if (loose.integrationName !== undefined) {
      throw new AuthStoreError('INVALID_INTEGRATION', `Only integration tokens take an integration name; role "${input.role}" does not`)
    }
    return
  }
  const workspace = (input as { workspace?: unknown }).workspace
  if (workspace !== undefined && workspace !== false) {
    throw new AuthStoreError('INVALID_SCOPE', `workspace: expected true or false, received ${JSON.stringify(workspace)}`)
  }
  if (typeof input.botId !== 'string') {
    throw new AuthStoreError('INVALID_SCOPE', 'A token needs a bot (botId) or workspace: true for a workspace-wide member token')
  }
  if (input.role === 'integration') {
    if (!input.integrationName || !INTEGRATION_NAME.test(input.integrationName)) {
      throw new AuthStoreError(
        'INVALID_INTEGRATION',
        `An integration token needs an integration name (1-100 characters: letters, digits, "_", "-", ".", "/"); received ${JSON.stringify(input.integrationName ?? null)}`,
      )
    }
  } else if (input.integrationName !== undefined) {
    throw new AuthStoreError('INVALID_INTEGRATION', `Only integration tokens take an integration name; role "${input.role}" does not`)
  }
}

/**
 * Mints a token for a checked input (see {@link checkTokenInput}): the secret (`bs_` + 32 random bytes,
 * base64url), its hash to store, and the record. A member token gets a user id of its own.
 *
 * @example
 * ```ts
 * const { created, hash } = mintToken({ botId, role: 'bot' }, { workspaceId, createdAt: now.toISOString() })
 * ```
 */
export function mintToken(input: CreateTokenInput, context: { workspaceId: string; createdAt: string }): { created: CreatedToken; hash: string } {
  const token = `bs_${randomBytes(32).toString('base64url')}`
  const isMember = (memberRoles as readonly string[]).includes(input.role)
  const workspaceWide = input.workspace === true
  const record: TokenRecord = {
    id: `tok_${randomBytes(12).toString('hex')}`,
    scope: workspaceWide ? 'workspace' : 'bot',
    botId: workspaceWide ? null : input.botId,
    workspaceId: workspaceWide ? context.workspaceId : null,
    role: input.role,
    integrationName: input.role === 'integration' ? input.integrationName! : null,
    userId: isMember ? `user_${randomBytes(12).toString('hex')}` : null,
    label: input.label ?? null,
    createdAt: context.createdAt,
    revokedAt: null,
  }
  return { created: { ...record, token }, hash: hashToken(token) }
}

/**
 * What a stored, unrevoked token grants for the bot named by `x-bot-id`, on every backend alike: a workspace
 * token reaches the bots of its workspace (`botInWorkspace`), a bot-bound one its own bot only.
 *
 * @example
 * ```ts
 * checkTokenFor(record, botId, false) // { ok: true, scope: 'bot', principal: { kind: 'bot', botId, tokenId } }
 * ```
 */
export function checkTokenFor(record: TokenRecord | undefined, botId: string, botInWorkspace: boolean): TokenCheck {
  if (!record || record.revokedAt !== null) return { ok: false, reason: 'unknown_token' }
  if (record.scope === 'workspace') {
    if (!botInWorkspace) return { ok: false, reason: 'unknown_bot' }
    return { ok: true, scope: 'workspace', principal: { kind: 'member', botId, role: record.role as MemberRole, userId: record.userId!, tokenId: record.id } }
  }
  if (record.botId !== botId) return { ok: false, reason: 'wrong_bot' }
  if (record.role === 'bot') return { ok: true, scope: 'bot', principal: { kind: 'bot', botId, tokenId: record.id } }
  if (record.role === 'integration') {
    return { ok: true, scope: 'bot', principal: { kind: 'integration', botId, integrationName: record.integrationName!, tokenId: record.id } }
  }
  return { ok: true, scope: 'bot', principal: { kind: 'member', botId, role: record.role as MemberRole, userId: record.userId!, tokenId: record.id } }
}
