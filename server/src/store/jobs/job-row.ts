import type { JobRecord, JobState } from './types.js'

/** A row of the `queue_jobs` table: the same columns on SQLite and PostgreSQL. */
export interface JobRow {
  seq: number
  id: string
  kind: string
  payload_json: string
  state: JobState
  attempts: number
  max_attempts: number
  dedupe_key: string | null
  run_at: string
  lease_owner: string | null
  lease_expires_at: string | null
  last_error: string | null
  created_at: string
  updated_at: string
  finished_at: string | null
}

/**
 * The port's record of a job row (payload parsed).
 *
 * @example
 * const job = jobRowToRecord(db.prepare('SELECT * FROM queue_jobs WHERE id = ?').get(id) as JobRow)
 */
export function jobRowToRecord(row: JobRow): JobRecord {
  return {
    id: row.id,
    kind: row.kind,
    payload: JSON.parse(row.payload_json) as unknown,
    state: row.state,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    dedupeKey: row.dedupe_key,
    runAt: row.run_at,
    leaseOwner: row.lease_owner,
    leaseExpiresAt: row.lease_expires_at,
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  }
}

/**
 * The ISO time `ms` milliseconds after `now`: lease ends and retry times.
 *
 * @example
 * isoAfter(new Date('2026-01-01T00:00:00Z'), 30_000) // '2026-01-01T00:00:30.000Z'
 */
export function isoAfter(now: Date, ms: number): string {
  return new Date(now.getTime() + ms).toISOString()
}
