import type { Statement } from 'better-sqlite3'
import type { TokenCheck } from '../auth/types.js'
import type { Sqlite } from './open-database.js'

/** How many accepted (token, bot) pairs are kept before the memory is cleared and refilled. */
const DEFAULT_CAPACITY = 10_000

/**
 * The answers of `authenticate` that accepted a token for a bot, kept so the next request with the same token and
 * bot skips the token's hash and its two statements (decision 1230). Only acceptances are kept: a refused token
 * (unknown, revoked, another bot) is checked against the database every time, so guessing tokens fills nothing.
 *
 * An answer is kept only while nothing can have changed it:
 * - a write of this store (a token revoked or created, a bot created) forgets everything (`forget`);
 * - a commit by another connection to the same database (`botshelf token revoke` beside a running server) moves
 *   SQLite's `PRAGMA data_version`, read at each lookup before the caller's own statements, and everything is
 *   forgotten;
 * - nothing is kept from inside a transaction, which may still roll back.
 *
 * @example
 * ```ts
 * const accepted = new AcceptedTokens(db)
 * const check = accepted.get(token, botId) ?? checkAgainstTables(token, botId)
 * accepted.remember(token, botId, check)
 * ```
 */
export class AcceptedTokens {
  private readonly checks = new Map<string, TokenCheck>()
  private readonly dataVersion: Statement<[]>
  private version: number

  constructor(
    private readonly db: Sqlite,
    private readonly capacity = DEFAULT_CAPACITY,
  ) {
    this.dataVersion = db.prepare<[]>('PRAGMA data_version').pluck()
    this.version = this.dataVersion.get() as number
  }

  /**
   * The kept acceptance of `token` for `botId`, if nothing has changed the database's tokens since.
   *
   * @example
   * ```ts
   * accepted.get(token, botId) // { ok: true, principal, scope } or undefined
   * ```
   */
  get(token: string, botId: string): TokenCheck | undefined {
    // Read before the caller's statements run, so an answer kept after them is never older than this version.
    const version = this.dataVersion.get() as number
    if (version !== this.version) {
      this.version = version
      this.checks.clear()
      return undefined
    }
    return this.checks.get(pairKey(token, botId))
  }

  /**
   * Keeps an acceptance (refusals and answers read inside a transaction are not kept).
   *
   * @example
   * ```ts
   * accepted.remember(token, botId, { ok: true, principal, scope })
   * ```
   */
  remember(token: string, botId: string, check: TokenCheck): void {
    if (!check.ok || this.db.inTransaction) return
    if (this.checks.size >= this.capacity) this.checks.clear()
    this.checks.set(pairKey(token, botId), check)
  }

  /**
   * Forgets every kept acceptance (after any write to tokens or bots).
   *
   * @example
   * ```ts
   * accepted.forget()
   * ```
   */
  forget(): void {
    this.checks.clear()
  }
}

// The bot id's length first, so no other (token, bot) pair can spell the same key.
function pairKey(token: string, botId: string): string {
  return `${botId.length}:${botId}${token}`
}
