import type { PgMigration } from '../pg-types.js'

/**
 * PostgreSQL schema of the durable job queue: one row per job, kept after it finishes. `seq` records creation
 * order; a partial unique index keeps one live job per kind and dedupe key whatever the callers checked.
 *
 * @example
 * ```ts
 * await runPgMigrations(sql, postgresJobsMigrations, 'public')
 * ```
 */
export const postgresJobsMigrations: ReadonlyArray<PgMigration> = [
  {
    id: 'jobs-0001-queue-jobs',
    async up(sql) {
      await sql`
        CREATE TABLE queue_jobs (
          seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          id text COLLATE "C" NOT NULL UNIQUE,
          kind text COLLATE "C" NOT NULL,
          payload_json text NOT NULL,
          state text NOT NULL CHECK (state IN ('pending', 'running', 'completed', 'dead')),
          attempts integer NOT NULL,
          max_attempts integer NOT NULL CHECK (max_attempts >= 1),
          dedupe_key text COLLATE "C",
          run_at text COLLATE "C" NOT NULL,
          lease_owner text,
          lease_expires_at text COLLATE "C",
          last_error text,
          created_at text NOT NULL,
          updated_at text NOT NULL,
          finished_at text
        )`
      // claim: pending jobs whose run_at has passed, and running ones whose worker stopped renewing the lease
      await sql`CREATE INDEX queue_jobs_due ON queue_jobs (run_at, seq) WHERE state = 'pending'`
      await sql`CREATE INDEX queue_jobs_lease ON queue_jobs (lease_expires_at) WHERE state = 'running'`
      // list by kind (and state), oldest first
      await sql`CREATE INDEX queue_jobs_kind ON queue_jobs (kind, state, seq)`
      await sql`CREATE INDEX queue_jobs_state ON queue_jobs (state, seq)`
      await sql`CREATE UNIQUE INDEX queue_jobs_dedupe ON queue_jobs (kind, dedupe_key) WHERE state IN ('pending', 'running')`
    },
  },
]
