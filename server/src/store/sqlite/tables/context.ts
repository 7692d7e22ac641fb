import type { Statement } from 'better-sqlite3'
import type { RegexBudget } from '../../tables/regex-budget.js'
import type { Sqlite } from '../connect.js'
import { registerRegexFunction } from './regex-function.js'
import { StatementCache } from './statements.js'
import type { Clock } from '../../clock.js'

/**
 * What every part of the SQLite tables store works with: the connection, the statement cache and the clock.
 * One per `SqliteTablesStore`.
 *
 * @example
 * ```ts
 * const record = loadTable(context, 'bot_1', 'ordersTable')
 * ```
 */
export interface TablesContext {
  readonly db: Sqlite
  /** A cached prepared statement (see `StatementCache`); for SQL that is the same across calls. */
  prepare(sql: string): Statement<unknown[]>
  now(): Date
  /** `now()` as an ISO string, the form every timestamp is stored in. */
  timestamp(): string
  /**
   * Runs statements that match patterns (`$regex` filters, pattern checks) with `budget` counting every match
   * (docs/decisions/0701-input-bounds.md).
   *
   * @example
   * ```ts
   * const raw = context.withRegexBudget(queryRegexBudget(), () => context.prepare(sql).all(...params))
   * ```
   */
  withRegexBudget<T>(budget: RegexBudget, fn: () => T): T
}

/**
 * The context of a tables store on a connection: a fresh statement cache, the clock, and the `$regex` function
 * registered on the connection with its budgets.
 *
 * @example
 * ```ts
 * const context = openTablesContext(db, () => new Date())
 * ```
 */
export function openTablesContext(db: Sqlite, now: Clock): TablesContext {
  const statements = new StatementCache(db)
  const regex = registerRegexFunction(db)
  return { db, prepare: (sql) => statements.prepare(sql), now, timestamp: () => now().toISOString(), withRegexBudget: (budget, fn) => regex.withBudget(budget, fn) }
}

/**
 * Tells a unique-constraint failure (key column duplicates) from other SQLite errors.
 *
 * @example
 * ```ts
 * if (isUniqueViolation(error)) throw keyConflict(keyColumn, index, value)
 * ```
 */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE'
}
