import type { Statement } from 'better-sqlite3'
import type { Sqlite } from '../connect.js'
import { BoundedMap } from 'botshelf/api'

/**
 * Prepared statements by SQL text, so hot queries are compiled once. Per-table SQL differs per table, so the
 * cache is bounded: past `size` entries it starts over.
 *
 * @example
 * ```ts
 * const statements = new StatementCache(db)
 * statements.prepare('SELECT 1').get()
 * ```
 */
export class StatementCache {
  private readonly statements: BoundedMap<string, Statement<unknown[]>>

  constructor(
    private readonly db: Sqlite,
    size = 500,
  ) {
    this.statements = new BoundedMap(size, 'clear')
  }

  /**
   * The prepared statement of `sql`, compiled on first use.
   *
   * @example
   * ```ts
   * statements.prepare('SELECT * FROM tables_catalog WHERE id = ?').get(id)
   * ```
   */
  prepare(sql: string): Statement<unknown[]> {
    let statement = this.statements.get(sql)
    if (!statement) {
      statement = this.db.prepare<unknown[]>(sql)
      this.statements.set(sql, statement)
    }
    return statement
  }
}
