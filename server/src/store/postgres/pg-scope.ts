import type postgres from 'postgres'
import type { PgSql } from './pg-types.js'
import { serializable } from './serializable.js'

/**
 * Where a port runs its statements: on the pool (each multi-statement call in a SERIALIZABLE transaction of its
 * own), or inside one open transaction (every call joins it). The same port code serves both, so
 * `backend.transaction` hands `fn` ports that are the root ones bound to its transaction.
 *
 * @example
 * ```ts
 * const files = new PgFilesPort(rootScope(sql), now)
 * await backend.transaction(async (tx) => tx.files.upsert(input)) // a PgFilesPort on transactionScope(txSql)
 * ```
 */
export interface PgScope {
  /** Single statements run here. */
  readonly sql: PgSql
  /** Runs statements that must agree: in the open transaction, or in a SERIALIZABLE one retried on conflicts. */
  atomic<T>(fn: (sql: postgres.TransactionSql) => Promise<T>): Promise<T>
}

/**
 * The scope of the root ports: the pool.
 *
 * @example
 * ```ts
 * const scope = rootScope(sql)
 * ```
 */
export function rootScope(sql: postgres.Sql): PgScope {
  return { sql, atomic: (fn) => serializable(sql, fn) }
}

/**
 * The scope of the ports `backend.transaction` hands its `fn`: every call joins the open transaction.
 *
 * @example
 * ```ts
 * await sql.begin(async (tx) => fn(portsOn(transactionScope(tx))))
 * ```
 */
export function transactionScope(tx: postgres.TransactionSql): PgScope {
  return { sql: tx, atomic: (fn) => fn(tx) }
}
