import postgres from 'postgres'
import { BotshelfError } from 'botshelf/api'

/** How many times a transaction that lost a serialization race runs again before the caller is told. */
export const SERIALIZABLE_ATTEMPTS = 12

/** SQLSTATEs after which running the transaction again is the remedy: serialization failure, deadlock. */
const RETRYABLE = new Set(['40001', '40P01'])

/**
 * Whether an error is PostgreSQL saying "run this transaction again": a serialization failure or a deadlock.
 *
 * @example
 * ```ts
 * isRetryableConflict(error) // true for SQLSTATE 40001 and 40P01
 * ```
 */
export function isRetryableConflict(error: unknown): boolean {
  return error instanceof postgres.PostgresError && RETRYABLE.has(error.code)
}

/** How a lost connection shows: socket errors, the library's own codes, and the server shutting sessions down. */
const CONNECTION_LOST = new Set(['ECONNRESET', 'EPIPE', 'ECONNREFUSED', 'ETIMEDOUT', 'CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', '57P01', '57P02', '57P03'])

/**
 * Whether an error means the connection to PostgreSQL was lost (a restart, a terminated session, a network cut).
 *
 * @example
 * ```ts
 * isConnectionLost(error) // true for ECONNRESET, CONNECTION_CLOSED, 57P01 admin_shutdown, ...
 * ```
 */
export function isConnectionLost(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && CONNECTION_LOST.has(code)
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Runs `fn` in a SERIALIZABLE transaction, and again (after a short randomized pause that grows) when
 * PostgreSQL aborts it for a serialization conflict, so that check-then-act inside is atomic without a global
 * lock: of two transactions that read what the other writes, one commits and the other runs again and sees
 * it. A connection lost before the commit was sent (a database restart) also runs it again, on a new
 * connection: nothing of the attempt was committed. One lost during the commit is not retried (it may have
 * committed), and reaches the caller. `fn` must therefore be safe to run again (store calls and pure checks only). After
 * {@link SERIALIZABLE_ATTEMPTS} lost races the caller gets a `BotshelfError` `TRANSACTION_CONFLICT` (409).
 *
 * @example
 * ```ts
 * const id = await serializable(sql, async (tx) => {
 *   const [row] = await tx`SELECT id FROM files WHERE bot_id = ${botId} AND key = ${key}`
 *   return row ? row.id : (await tx`INSERT INTO files ... RETURNING id`)[0].id
 * })
 * ```
 */
export async function serializable<T>(sql: postgres.Sql, fn: (tx: postgres.TransactionSql) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let committing = false
    try {
      return (await sql.begin('isolation level serializable', async (tx) => {
        const result = await fn(tx)
        committing = true
        return result
      })) as T
    } catch (error) {
      if (!isRetryableConflict(error) && !(isConnectionLost(error) && !committing)) throw error
      if (attempt >= SERIALIZABLE_ATTEMPTS) {
        throw new BotshelfError(
          'ResourceLockedConflict',
          'TRANSACTION_CONFLICT',
          `The change conflicted with concurrent changes ${attempt} times in a row and was not made; try again`,
        )
      }
      await sleep(Math.random() * Math.min(2 ** attempt, 200))
    }
  }
}
