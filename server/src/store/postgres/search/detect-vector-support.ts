import type { PgSql } from '../pg-types.js'
import type { VectorMode } from './vector-mode.js'

/**
 * `pgvector` when the `vector` extension exists or can be created in this database (`CREATE EXTENSION IF NOT EXISTS
 * vector` succeeds), `exact` otherwise (not installed on the server, or no right to create it). Runs in a savepoint
 * of its own so a refusal leaves a surrounding transaction usable.
 *
 * @example
 * ```ts
 * const vectors = await detectVectorSupport(sql) // 'exact' on a server without pgvector
 * await runMigrations(sql, postgresSearchMigrations({ vectors }))
 * ```
 */
export async function detectVectorSupport(sql: PgSql): Promise<VectorMode> {
  const attempt = async (tx: PgSql): Promise<void> => {
    await tx`CREATE EXTENSION IF NOT EXISTS vector`
  }
  try {
    if ('savepoint' in sql) await sql.savepoint(attempt)
    else await sql.begin(attempt)
    return 'pgvector'
  } catch {
    return 'exact'
  }
}
