import type { Migration } from '../migrations.js'

/**
 * Schema of the computed cells (decision 1422): one record per row and computed column, keyed by table, row and
 * column; the partial index finds the stale ones of a table in row order.
 *
 * @example
 * ```ts
 * runMigrations(db, computedMigrations)
 * ```
 */
export const computedMigrations: ReadonlyArray<Migration> = [
  {
    id: 'computed-0001-cells',
    up(db) {
      db.exec(`
        CREATE TABLE computed_cells (
          table_id TEXT NOT NULL,
          row_id INTEGER NOT NULL,
          column_name TEXT NOT NULL,
          bot_id TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('pending', 'computed', 'failed', 'disabled')),
          error TEXT,
          updated_by TEXT,
          updated_at TEXT NOT NULL,
          stale INTEGER NOT NULL,
          generation INTEGER NOT NULL,
          claim_token TEXT,
          claimed_until TEXT,
          PRIMARY KEY (table_id, row_id, column_name)
        )`)
      db.exec('CREATE INDEX computed_cells_stale ON computed_cells (table_id, row_id) WHERE stale = 1')
    },
  },
]
