import type { TokenCheck } from '../../auth/types.js'
import { DataVersionWatch } from '../data-version-watch.js'
import type { Sqlite } from '../connect.js'
import { BoundedMap } from 'botshelf/api'

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
 *   the connection's {@link DataVersionWatch}, read at each lookup before the caller's own statements, and everything
 *   is forgotten;
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
  private readonly checks: BoundedMap<string, TokenCheck>
  private readonly watch: DataVersionWatch
  /** The watch's epoch when the kept checks were last known valid. */
  private epoch: number

  constructor(
    private readonly db: Sqlite,
    capacity = DEFAULT_CAPACITY,
  ) {
    this.checks = new BoundedMap(capacity, 'clear')
    this.watch = DataVersionWatch.of(db)
    this.epoch = this.watch.read()
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
    // Read before the caller's statements run, so an answer kept after them is never older than this epoch.
    const epoch = this.watch.read()
    if (epoch !== this.epoch) {
      this.epoch = epoch
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
