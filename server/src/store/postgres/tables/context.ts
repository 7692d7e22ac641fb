import type { Clock } from '../../clock.js'
import type { PgSql } from '../pg-types.js'
import type { VectorMode } from '../search/vector-mode.js'

/** Rows a statement returns, as plain records. */
export type PgRows = Array<Record<string, unknown>>

/**
 * What every part of the PostgreSQL tables port works with: the connection it is bound to (the pool or one
 * transaction) and the clock.
 *
 * @example
 * ```ts
 * const record = await loadTable(context, 'bot_1', 'ordersTable')
 * ```
 */
export interface PgTablesContext {
  readonly sql: PgSql
  now(): Date
  /** `now()` as an ISO string, the form every timestamp is stored in (as on SQLite). */
  timestamp(): string
  /** How row vectors are stored: the search index's choice (decision 0930). */
  readonly vectors: VectorMode
}

/**
 * The context of a port bound to `sql`, with the clock and the vector mode of row vectors (default `exact`).
 *
 * @example
 * ```ts
 * const context = tablesContext(pool, () => new Date(), 'pgvector')
 * ```
 */
export function tablesContext(sql: PgSql, now: Clock, vectors: VectorMode = 'exact'): PgTablesContext {
  return { sql, now, timestamp: () => now().toISOString(), vectors }
}

/**
 * Runs one statement with positional parameters (`$1`, `$2`, … with their casts in the text) and returns its rows.
 * With `prepared`, the statement is kept prepared on each connection and only bound and run on later calls (no
 * parse, no plan): for the few fixed texts run on every call, such as the catalog lookups. Texts built from user
 * input (finds, filters) are prepared only when `PreparedTexts` says so (decision 0964), so a connection never
 * holds an unbounded number of statements.
 *
 * @example
 * ```ts
 * const rows = await query(context, 'SELECT id FROM tables_catalog WHERE bot_id = $1::text', ['bot_1'])
 * await query(context, 'SELECT * FROM tables_catalog WHERE bot_id = $1::text AND name = $2::text', ['bot_1', 'ordersTable'], { prepared: true })
 * ```
 */
export async function query(context: PgTablesContext, text: string, params: readonly unknown[] = [], options: { prepared?: boolean } = {}): Promise<PgRows> {
  return (await context.sql.unsafe(text, params as never[], { prepare: options.prepared === true })) as unknown as PgRows
}

/**
 * Whether `sql` is already a transaction (it can open savepoints, not transactions).
 *
 * @example
 * ```ts
 * if (!inTransaction(context.sql)) cache.set(botId, ref, entry)
 * ```
 */
export function inTransaction(sql: PgSql): sql is Extract<PgSql, { savepoint: unknown }> {
  return typeof (sql as { savepoint?: unknown }).savepoint === 'function'
}

/**
 * Runs `fn` all or nothing (docs/decisions/0403-all-or-nothing-writes.md): in a new transaction on the pool, or
 * in a savepoint of the caller's transaction, so a refused write leaves the caller's transaction usable.
 *
 * @example
 * ```ts
 * await atomically(context, async (tx) => { await query(tx, 'DELETE FROM …'); await query(tx, 'INSERT …') })
 * ```
 */
export async function atomically<T>(context: PgTablesContext, fn: (tx: PgTablesContext) => Promise<T>): Promise<T> {
  const run = (sql: PgSql) => fn({ ...context, sql })
  const sql = context.sql
  // A callback's array result would be awaited element by element: wrap it so it comes back as it is.
  const wrapped = async (sql: PgSql) => ({ value: await run(sql) })
  const result = inTransaction(sql) ? await sql.savepoint((tx) => wrapped(tx)) : await (sql as Exclude<PgSql, { savepoint: unknown }>).begin((tx) => wrapped(tx))
  return (result as { value: T }).value
}

/**
 * Runs reads that must see one snapshot (a `$regex` filter reads the values it matches, then the rows): in a
 * repeatable-read, read-only transaction on the pool, or in the caller's transaction as it is.
 *
 * @example
 * ```ts
 * const rows = await consistently(context, async (tx) => { const values = await matchValues(tx); return find(tx, values) })
 * ```
 */
export async function consistently<T>(context: PgTablesContext, fn: (tx: PgTablesContext) => Promise<T>): Promise<T> {
  const sql = context.sql
  if (inTransaction(sql)) return fn(context)
  const result = await (sql as Exclude<PgSql, { savepoint: unknown }>).begin('isolation level repeatable read read only', async (tx) => ({ value: await fn({ ...context, sql: tx }) }))
  return (result as { value: T }).value
}

export { quoteIdent } from '../../tables/column-sql.js'

/**
 * The SQLSTATE of a PostgreSQL error, or `undefined` for other errors.
 *
 * @example
 * ```ts
 * if (sqlState(error) === '23505') throw keyConflict(keyColumn, index, value)
 * ```
 */
export function sqlState(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const code = (error as { code?: unknown; name?: unknown }).code
  return (error as { name?: unknown }).name === 'PostgresError' && typeof code === 'string' ? code : undefined
}

/**
 * SQLSTATE of a unique violation (a duplicate key column value, a taken table name).
 *
 * @example
 * ```ts
 * if (sqlState(error) === UNIQUE_VIOLATION) throw tableNameTaken(name)
 * ```
 */
export const UNIQUE_VIOLATION = '23505'

/** SQLSTATEs of a statement naming a table or column that a concurrent change dropped (undefined table, column). */
const STALE_NAMES: ReadonlySet<string> = new Set(['42P01', '42703'])

/**
 * Runs a read of a user table again, once, when the table or a column it named was dropped by a schema change or
 * a delete that committed between reading the catalog and reading the rows: the second run reads the catalog as
 * it now is (and a deleted table is then `ResourceNotFound`). Only on the pool: inside a transaction the failed
 * statement has aborted the caller's transaction, which is the caller's to retry.
 *
 * @example
 * ```ts
 * const row = await rereadingStale(context, () => getRowOnce(context, botId, ref, id))
 * ```
 */
export async function rereadingStale<T>(context: PgTablesContext, read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (error) {
    const state = sqlState(error)
    if (inTransaction(context.sql) || state === undefined || !STALE_NAMES.has(state)) throw error
    return read()
  }
}
