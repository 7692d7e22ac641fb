import type postgres from 'postgres'

/**
 * A PostgreSQL connection a port runs its statements on: the pool, or one transaction of it.
 *
 * @example
 * ```ts
 * const sql: PgSql = postgres('postgres://postgres@127.0.0.1:5432/botshelf')
 * ```
 */
export type PgSql = postgres.Sql | postgres.TransactionSql

/**
 * One step of a port's PostgreSQL schema, applied once inside a transaction and recorded by its id.
 *
 * @example
 * ```ts
 * const m: PgMigration = { id: 'auth-0001', up: async (sql) => { await sql`CREATE TABLE t (id text)` } }
 * ```
 */
export interface PgMigration {
  id: string
  up(sql: postgres.TransactionSql): Promise<void>
}
