import type { PgMigration } from '../pg-types.js'

/**
 * PostgreSQL schema of the computed cells (decision 1422), the same as SQLite's.
 *
 * @example
 * ```ts
 * await runPgMigrations(sql, computedMigrations, 'public')
 * ```
 */
export const computedMigrations: ReadonlyArray<PgMigration> = [
  {
    id: 'computed-0001-cells',
    async up(sql) {
      await sql`
        CREATE TABLE computed_cells (
          table_id text COLLATE "C" NOT NULL,
          row_id bigint NOT NULL,
          column_name text COLLATE "C" NOT NULL,
          bot_id text COLLATE "C" NOT NULL,
          status text NOT NULL CHECK (status IN ('pending', 'computed', 'failed', 'disabled')),
          error text,
          updated_by text,
          updated_at text NOT NULL,
          stale boolean NOT NULL,
          generation integer NOT NULL,
          claim_token text,
          claimed_until text COLLATE "C",
          PRIMARY KEY (table_id, row_id, column_name)
        )`
      await sql`CREATE INDEX computed_cells_stale ON computed_cells (table_id, row_id) WHERE stale`
    },
  },
]
