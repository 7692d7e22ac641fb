import type { Migration } from '../migrations.js'

/**
 * Schema of the durable job queue: one row per job, kept after it finishes (`completed` or `dead`) for inspection.
 * `seq` records creation order, which ids cannot: ULIDs of the same millisecond are not ordered.
 *
 * @example
 * ```ts
 * runMigrations(db, [...authMigrations, ...filesMigrations, ...jobsMigrations])
 * ```
 */
export const jobsMigrations: ReadonlyArray<Migration> = [
  {
    id: 'jobs-0001-queue-jobs',
    up(db) {
      db.exec(`
        CREATE TABLE queue_jobs (
          seq INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          kind TEXT NOT NULL,
          payload_json TEXT NOT NULL,
          state TEXT NOT NULL CHECK (state IN ('pending', 'running', 'completed', 'dead')),
          attempts INTEGER NOT NULL,
          max_attempts INTEGER NOT NULL CHECK (max_attempts >= 1),
          dedupe_key TEXT,
          run_at TEXT NOT NULL,
          lease_owner TEXT,
          lease_expires_at TEXT,
          last_error TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          finished_at TEXT
        );
        -- claim: the oldest pending job whose run_at has passed
        CREATE INDEX queue_jobs_due ON queue_jobs (state, run_at, seq);
        -- claim: running jobs whose worker stopped renewing the lease
        CREATE INDEX queue_jobs_lease ON queue_jobs (state, lease_expires_at);
        -- list by kind (and state), oldest first
        CREATE INDEX queue_jobs_kind ON queue_jobs (kind, state, seq);
        -- dedupe holds under races: a second live job with the same key cannot be inserted, whatever the caller checked
        CREATE UNIQUE INDEX queue_jobs_dedupe ON queue_jobs (kind, dedupe_key) WHERE state IN ('pending', 'running');
      `)
    },
  },
]
