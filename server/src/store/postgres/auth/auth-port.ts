import { randomBytes, randomUUID } from 'node:crypto'
import type { AuthPort } from '../../auth/auth-port.js'
import { AuthStoreError } from '../../auth/errors.js'
import { tokenRowToRecord, type TokenRow } from '../../auth/token-row.js'
import { checkTokenFor, checkTokenInput, hashToken, mintToken } from '../../auth/token-rules.js'
import type { BotRecord, CreateTokenInput, CreatedToken, TokenCheck, TokenRecord } from '../../auth/types.js'
import type { Clock } from '../../clock.js'
import type { PgScope } from '../pg-scope.js'
import type { PgSql } from '../pg-types.js'
import { hasNul } from '../text-limits.js'


interface BotRow {
  id: string
  workspace_id: string
  name: string
  created_at: string
}


function toBot(row: BotRow): BotRecord {
  return { id: row.id, workspaceId: row.workspace_id, name: row.name, createdAt: row.created_at }
}

/**
 * The auth port on PostgreSQL: the single workspace (agreed on by every server through a unique index), bots,
 * hashed tokens (the same rules as every backend: `token-rules.ts`) and the signing key, created once per
 * dataset and shared by every server.
 *
 * @example
 * ```ts
 * const auth = new PgAuthPort(rootScope(sql), systemClock)
 * const bot = await auth.createBot({ name: 'support' })
 * ```
 */
export class PgAuthPort implements AuthPort {
  constructor(
    private readonly scope: PgScope,
    private readonly now: Clock,
  ) {}

  /**
   * The workspace id; the first call on a dataset creates it, and concurrent first calls agree on one.
   *
   * @example
   * ```ts
   * await auth.ensureWorkspace() // 'wkspace_...'
   * ```
   */
  async ensureWorkspace(): Promise<string> {
    return ensureWorkspaceOn(this.scope.sql, this.now)
  }

  /**
   * Creates a bot in the workspace (a UUID id unless given).
   *
   * @example
   * ```ts
   * (await auth.createBot({ name: 'support' })).id
   * ```
   */
  async createBot(input: { name?: string; id?: string } = {}): Promise<BotRecord> {
    return this.scope.atomic(async (sql) => {
      const workspaceId = await ensureWorkspaceOn(sql, this.now)
      const bot: BotRecord = { id: input.id ?? randomUUID(), workspaceId, name: input.name ?? 'bot', createdAt: this.now().toISOString() }
      await sql`INSERT INTO bots (id, workspace_id, name, created_at) VALUES (${bot.id}, ${bot.workspaceId}, ${bot.name}, ${bot.createdAt})`
      return bot
    })
  }

  /**
   * Every bot, oldest first.
   *
   * @example
   * ```ts
   * (await auth.listBots())[0]?.id
   * ```
   */
  async listBots(): Promise<BotRecord[]> {
    const rows = await this.scope.sql<BotRow[]>`SELECT id, workspace_id, name, created_at FROM bots ORDER BY created_at, id`
    return rows.map(toBot)
  }

  /**
   * A bot by id.
   *
   * @example
   * ```ts
   * (await auth.getBot(botId))?.name
   * ```
   */
  async getBot(id: string): Promise<BotRecord | undefined> {
    if (hasNul(id)) return undefined
    const [row] = await this.scope.sql<BotRow[]>`SELECT id, workspace_id, name, created_at FROM bots WHERE id = ${id}`
    return row ? toBot(row) : undefined
  }

  /**
   * Creates a token bound to a bot, or a workspace-wide member token; the secret is in the result only.
   *
   * @example
   * ```ts
   * const { token } = await auth.createToken({ botId, role: 'bot' })
   * ```
   */
  async createToken(input: CreateTokenInput): Promise<CreatedToken> {
    checkTokenInput(input)
    return this.scope.atomic(async (sql) => {
      let workspaceId = ''
      if (input.workspace === true) workspaceId = await ensureWorkspaceOn(sql, this.now)
      else if ((await sql`SELECT 1 FROM bots WHERE id = ${input.botId}`).length === 0) throw new AuthStoreError('UNKNOWN_BOT', `No bot with id "${input.botId}"`)
      const { created, hash } = mintToken(input, { workspaceId, createdAt: this.now().toISOString() })
      await sql`
        INSERT INTO tokens (id, hash, bot_id, workspace_id, role, integration_name, user_id, label, created_at)
        VALUES (${created.id}, ${hash}, ${created.botId}, ${created.workspaceId}, ${created.role}, ${created.integrationName},
          ${created.userId}, ${created.label}, ${created.createdAt})`
      return created
    })
  }

  /**
   * Tokens without secrets, oldest first; `botId` keeps those that reach that bot (its own and the workspace's).
   *
   * @example
   * ```ts
   * await auth.listTokens({ botId, activeOnly: true })
   * ```
   */
  async listTokens(filter: { botId?: string; activeOnly?: boolean } = {}): Promise<TokenRecord[]> {
    const sql = this.scope.sql
    const reaches =
      filter.botId === undefined ? sql`` : sql`AND (t.bot_id = ${filter.botId} OR t.workspace_id = (SELECT workspace_id FROM bots WHERE id = ${filter.botId}))`
    const active = filter.activeOnly ? sql`AND t.revoked_at IS NULL` : sql``
    const rows = await sql<TokenRow[]>`SELECT t.* FROM tokens t WHERE true ${reaches} ${active} ORDER BY t.created_at, t.id`
    return rows.map(tokenRowToRecord)
  }

  /**
   * Revokes a token (again: harmless); `AuthStoreError('UNKNOWN_TOKEN')` for an unknown id.
   *
   * @example
   * ```ts
   * await auth.revokeToken('tok_0123...')
   * ```
   */
  async revokeToken(id: string): Promise<TokenRecord> {
    const [row] = await this.scope.sql<TokenRow[]>`
      UPDATE tokens SET revoked_at = coalesce(revoked_at, ${this.now().toISOString()}) WHERE id = ${id} RETURNING *`
    if (!row) throw new AuthStoreError('UNKNOWN_TOKEN', `No token with id "${id}"`)
    return tokenRowToRecord(row)
  }

  /**
   * Checks a bearer token against the bot named by `x-bot-id`, in one statement.
   *
   * @example
   * ```ts
   * const check = await auth.authenticate(token, botId)
   * ```
   */
  async authenticate(token: string, botId: string): Promise<TokenCheck> {
    // The token is hashed, but the bot id goes to PostgreSQL as text, which cannot hold NUL: no such bot.
    if (hasNul(botId)) return checkTokenFor(await this.tokenByHash(hashToken(token)), botId, false)
    const [row] = await this.scope.sql<Array<TokenRow & { bot_in_workspace: boolean }>>`
      SELECT t.*, EXISTS (SELECT 1 FROM bots b WHERE b.id = ${botId} AND b.workspace_id = t.workspace_id) AS bot_in_workspace
      FROM tokens t WHERE t.hash = ${hashToken(token)} AND t.revoked_at IS NULL`
    if (!row) return { ok: false, reason: 'unknown_token' }
    return checkTokenFor(tokenRowToRecord(row), botId, row.bot_in_workspace)
  }

  private async tokenByHash(hash: string): Promise<TokenRecord | undefined> {
    const [row] = await this.scope.sql<TokenRow[]>`SELECT * FROM tokens WHERE hash = ${hash} AND revoked_at IS NULL`
    return row ? tokenRowToRecord(row) : undefined
  }

  /**
   * The signing key of the dataset (32 bytes): the first call of any server creates it (from `seed` when given),
   * every later call on any server reads the same one.
   *
   * @example
   * ```ts
   * const key = await auth.signingKey()
   * ```
   */
  async signingKey(seed?: Buffer): Promise<Buffer> {
    const sql = this.scope.sql
    const key = seed && seed.length === 32 ? seed : randomBytes(32)
    await sql`INSERT INTO service_secrets (name, value, created_at) VALUES ('signing-key', ${key}, ${this.now().toISOString()}) ON CONFLICT (name) DO NOTHING`
    const [row] = await sql<Array<{ value: Buffer }>>`SELECT value FROM service_secrets WHERE name = 'signing-key'`
    return Buffer.from(row!.value)
  }
}

/** The default workspace, inserted unless present: the unique index on `is_default` settles concurrent first calls. */
async function ensureWorkspaceOn(sql: PgSql, now: Clock): Promise<string> {
  const [existing] = await sql<Array<{ id: string }>>`SELECT id FROM workspaces WHERE is_default`
  if (existing) return existing.id
  const id = `wkspace_${randomUUID().replace(/-/g, '')}`
  await sql`INSERT INTO workspaces (id, name, created_at) VALUES (${id}, 'default', ${now().toISOString()}) ON CONFLICT (is_default) WHERE is_default DO NOTHING`
  const [row] = await sql<Array<{ id: string }>>`SELECT id FROM workspaces WHERE is_default`
  return row!.id
}
