import { randomBytes, randomUUID } from 'node:crypto'
import type { Sqlite } from '../connect.js'
import { StatementCache } from '../tables/statements.js'
import { AuthStoreError } from '../../auth/errors.js'
import { AcceptedTokens } from './accepted-tokens.js'
import { tokenRowToRecord, type TokenRow } from '../../auth/token-row.js'
import { checkTokenFor, checkTokenInput, hashToken, mintToken } from '../../auth/token-rules.js'
import type { BotRecord, CreateTokenInput, CreatedToken, TokenCheck, TokenRecord } from '../../auth/types.js'
import { systemClock, type Clock } from '../../clock.js'



/**
 * The workspace, its bots and their tokens, in the embedded SQLite database (run `authMigrations` first).
 *
 * @example
 * ```ts
 * const store = new AuthStore(db, () => new Date())
 * const bot = store.createBot({ name: 'support' })
 * const { token } = store.createToken({ botId: bot.id, role: 'bot' })
 * store.authenticate(token, bot.id) // { ok: true, principal: { kind: 'bot', botId, tokenId } }
 * ```
 */
export class AuthStore {
  /** The two statements of `authenticate` (every authenticated request), compiled once (decision 1201). */
  private readonly statements: StatementCache
  /** Tokens accepted for a bot since the last change to tokens or bots (decision 1230). */
  private readonly accepted: AcceptedTokens

  constructor(
    private readonly db: Sqlite,
    private readonly now: Clock = systemClock,
  ) {
    this.statements = new StatementCache(db, 16)
    this.accepted = new AcceptedTokens(db)
  }

  /**
   * The workspace id, creating the single workspace on first call.
   *
   * @example
   * ```ts
   * store.ensureWorkspace() // 'wkspace_...'
   * ```
   */
  ensureWorkspace(): string {
    const existing = this.db.prepare('SELECT id FROM workspaces ORDER BY created_at LIMIT 1').pluck().get() as string | undefined
    if (existing) return existing
    const id = `wkspace_${randomUUID().replace(/-/g, '')}`
    this.db.prepare('INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)').run(id, 'default', this.now().toISOString())
    return id
  }

  /**
   * Creates a bot in the workspace. Its id is a UUID, like Botpress bot ids, unless one is given.
   *
   * @example
   * ```ts
   * store.createBot({ name: 'support' }).id // '3f1c...'
   * ```
   */
  createBot(input: { name?: string; id?: string } = {}): BotRecord {
    const workspaceId = this.ensureWorkspace()
    const bot: BotRecord = {
      id: input.id ?? randomUUID(),
      workspaceId,
      name: input.name ?? 'bot',
      createdAt: this.now().toISOString(),
    }
    this.db.prepare('INSERT INTO bots (id, workspace_id, name, created_at) VALUES (?, ?, ?, ?)').run(bot.id, bot.workspaceId, bot.name, bot.createdAt)
    this.accepted.forget()
    return bot
  }

  /**
   * Every bot, oldest first.
   *
   * @example
   * ```ts
   * store.listBots()[0]?.id
   * ```
   */
  listBots(): BotRecord[] {
    const rows = this.db.prepare('SELECT id, workspace_id, name, created_at FROM bots ORDER BY created_at, id').all() as Array<{
      id: string
      workspace_id: string
      name: string
      created_at: string
    }>
    return rows.map((r) => ({ id: r.id, workspaceId: r.workspace_id, name: r.name, createdAt: r.created_at }))
  }

  /**
   * Looks a bot up by id.
   *
   * @example
   * ```ts
   * store.getBot(botId)?.name
   * ```
   */
  getBot(id: string): BotRecord | undefined {
    return this.listBots().find((bot) => bot.id === id)
  }

  /**
   * Creates a token bound to one bot, or with `workspace: true` a member token that reaches every bot of the
   * workspace. The secret is returned once; only its hash is stored.
   *
   * @example
   * ```ts
   * const { token } = store.createToken({ botId, role: 'integration', integrationName: 'slack' })
   * const personal = store.createToken({ workspace: true, role: 'developer' }) // any bot, named by x-bot-id
   * ```
   */
  createToken(input: CreateTokenInput): CreatedToken {
    checkTokenInput(input)
    if (input.workspace !== true && !this.getBot(input.botId)) throw new AuthStoreError('UNKNOWN_BOT', `No bot with id "${input.botId}"`)
    const workspaceId = input.workspace === true ? this.ensureWorkspace() : ''
    const { created, hash } = mintToken(input, { workspaceId, createdAt: this.now().toISOString() })
    this.insertToken(created, hash)
    return created
  }

  private insertToken(record: TokenRecord, hash: string): void {
    this.db
      .prepare(
        'INSERT INTO tokens (id, hash, bot_id, workspace_id, role, integration_name, user_id, label, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        record.id,
        hash,
        record.botId,
        record.workspaceId,
        record.role,
        record.integrationName,
        record.userId,
        record.label,
        record.createdAt,
      )
    this.accepted.forget()
  }

  /**
   * Tokens, newest last; revoked ones included (with `revokedAt`) unless `activeOnly`. `botId` keeps the tokens
   * that reach that bot: the ones bound to it and the workspace tokens of its workspace.
   *
   * @example
   * ```ts
   * store.listTokens({ botId, activeOnly: true })
   * ```
   */
  listTokens(filter: { botId?: string; activeOnly?: boolean } = {}): TokenRecord[] {
    const rows = this.db.prepare('SELECT * FROM tokens ORDER BY created_at, id').all() as TokenRow[]
    const botWorkspace = filter.botId === undefined ? undefined : this.getBot(filter.botId)?.workspaceId
    const reachesBot = (row: TokenRow) =>
      filter.botId === undefined || row.bot_id === filter.botId || (row.workspace_id !== null && row.workspace_id === botWorkspace)
    return rows
      .filter((row) => reachesBot(row) && (!filter.activeOnly || row.revoked_at === null))
      .map(tokenRowToRecord)
  }

  /**
   * Revokes a token by id; it stops working at once. Revoking twice is harmless.
   *
   * @example
   * ```ts
   * store.revokeToken('tok_0123...')
   * ```
   */
  revokeToken(id: string): TokenRecord {
    const row = this.db.prepare('SELECT * FROM tokens WHERE id = ?').get(id) as TokenRow | undefined
    if (!row) throw new AuthStoreError('UNKNOWN_TOKEN', `No token with id "${id}"`)
    if (row.revoked_at === null) {
      row.revoked_at = this.now().toISOString()
      this.db.prepare('UPDATE tokens SET revoked_at = ? WHERE id = ?').run(row.revoked_at, id)
    }
    this.accepted.forget()
    return tokenRowToRecord(row)
  }

  /**
   * Checks a bearer token for a bot: unknown or revoked → `unknown_token`; bound to another bot → `wrong_bot`;
   * a workspace token and no such bot in its workspace → `unknown_bot`; otherwise the principal for that bot.
   *
   * @example
   * ```ts
   * const check = store.authenticate(token, botId)
   * if (check.ok) check.principal.kind // 'bot' | 'integration' | 'member'
   * ```
   */
  authenticate(token: string, botId: string): TokenCheck {
    const kept = this.accepted.get(token, botId)
    if (kept) return kept
    const row = this.statements.prepare('SELECT * FROM tokens WHERE hash = ? AND revoked_at IS NULL').get(hashToken(token)) as TokenRow | undefined
    if (!row) return { ok: false, reason: 'unknown_token' }
    const inWorkspace =
      row.workspace_id !== null && this.statements.prepare('SELECT 1 FROM bots WHERE id = ? AND workspace_id = ?').get(botId, row.workspace_id) !== undefined
    const check = checkTokenFor(tokenRowToRecord(row), botId, inWorkspace)
    this.accepted.remember(token, botId, check)
    return check
  }

  /**
   * The signing key of signed URLs and cursors (32 bytes), created on first call: from `seed` when given (the
   * `signing-key` file of an older data folder, so its URLs keep working), random otherwise.
   *
   * @example
   * ```ts
   * const key = store.signingKey() // the same 32 bytes on every later call
   * ```
   */
  signingKey(seed?: Buffer): Buffer {
    const existing = this.db.prepare("SELECT value FROM service_secrets WHERE name = 'signing-key'").pluck().get() as Buffer | undefined
    if (existing) return Buffer.from(existing)
    const key = seed && seed.length === 32 ? seed : randomBytes(32)
    this.db
      .prepare("INSERT INTO service_secrets (name, value, created_at) VALUES ('signing-key', ?, ?) ON CONFLICT (name) DO NOTHING")
      .run(key, this.now().toISOString())
    return Buffer.from(this.db.prepare("SELECT value FROM service_secrets WHERE name = 'signing-key'").pluck().get() as Buffer)
  }
}
