import type postgres from 'postgres'
import type { Clock } from '../../clock.js'
import { newJobId } from '../../jobs/ids.js'
import { checkClaimInput, checkEnqueueInput, LAST_LEASE_EXPIRED, listLimit, requirePositiveMs } from '../../jobs/job-input.js'
import type { JobQueue } from '../../jobs/job-queue.js'
import { isoAfter, jobRowToRecord, type JobRow } from '../../jobs/job-row.js'
import { jobRetryDelayMs } from '../../jobs/retry-delay.js'
import type { ClaimInput, EnqueueInput, FailInput, JobListQuery, JobRecord } from '../../jobs/types.js'
import type { PgScope } from '../pg-scope.js'
import type { PgSql } from '../pg-types.js'




function kindCondition(sql: PgSql, kinds: ReadonlyArray<string> | undefined): postgres.PendingQuery<postgres.Row[]> {
  if (kinds === undefined) return sql`true`
  return kinds.length === 0 ? sql`false` : sql`kind IN ${sql([...kinds])}`
}

function botCondition(sql: PgSql, skipBots: ReadonlyArray<string> | undefined): postgres.PendingQuery<postgres.Row[]> {
  if (skipBots === undefined || skipBots.length === 0) return sql`true`
  // A job without a botId is never skipped (decision 1463).
  return sql`((payload_json::jsonb ->> 'botId') IS NULL OR (payload_json::jsonb ->> 'botId') NOT IN ${sql([...skipBots])})`
}

/**
 * The `JobQueue` port on PostgreSQL. A claim is one statement: the oldest due job is locked with
 * `FOR UPDATE SKIP LOCKED` and taken under a lease, so any number of workers on any number of servers claim
 * concurrently without waiting on each other and never share a job. The partial unique index on (kind, dedupe
 * key) keeps one live job per key whatever the races; a worker's writes are guarded by its lease
 * (`state = 'running' AND lease_owner = worker`). Every time comes from the backend's clock.
 *
 * @example
 * ```ts
 * const queue = new PgJobQueue(rootScope(sql), systemClock)
 * await queue.enqueue({ kind: 'files.expire', dedupeKey: 'sweep' })
 * const job = await queue.claim({ workerId: 'host:42:0', leaseMs: 30_000 })
 * ```
 */
export class PgJobQueue implements JobQueue {
  constructor(
    private readonly scope: PgScope,
    private readonly now: Clock,
  ) {}

  /**
   * Queues a job; with a `dedupeKey` already pending or running for the kind, returns that job (`created: false`).
   *
   * @example
   * ```ts
   * const { job, created } = await queue.enqueue({ kind: 'tables.import', payload: { tableJobId }, dedupeKey: tableJobId })
   * ```
   */
  async enqueue(input: EnqueueInput): Promise<{ job: JobRecord; created: boolean }> {
    const maxAttempts = checkEnqueueInput(input)
    const sql = this.scope.sql
    const dedupeKey = input.dedupeKey ?? null
    // The live job of a conflict can finish between the insert and the read: then the insert is tried again.
    for (let round = 0; round < 5; round++) {
      const now = this.now()
      const nowIso = now.toISOString()
      const [inserted] = await sql<JobRow[]>`
        INSERT INTO queue_jobs (id, kind, payload_json, state, attempts, max_attempts, dedupe_key, run_at, created_at, updated_at)
        VALUES (${newJobId(now)}, ${input.kind}, ${JSON.stringify(input.payload ?? null)}, 'pending', 0, ${maxAttempts}, ${dedupeKey},
          ${(input.runAt ?? now).toISOString()}, ${nowIso}, ${nowIso})
        ON CONFLICT DO NOTHING RETURNING *`
      if (inserted) return { job: jobRowToRecord(inserted), created: true }
      const [live] = await sql<JobRow[]>`
        SELECT * FROM queue_jobs WHERE kind = ${input.kind} AND dedupe_key = ${dedupeKey} AND state IN ('pending', 'running')`
      if (live) return { job: jobRowToRecord(live), created: false }
    }
    throw new Error(`enqueue: the dedupe key ${JSON.stringify(dedupeKey)} of ${input.kind} kept conflicting with jobs that finished at once`)
  }

  /**
   * Claims the oldest due job under a lease and counts the attempt; buries running jobs whose lease expired on
   * their last attempt first. `undefined` when nothing is due.
   *
   * @example
   * ```ts
   * const job = await queue.claim({ workerId: 'host:42:0', kinds: ['tables.import'], leaseMs: 30_000 })
   * ```
   */
  async claim(input: ClaimInput): Promise<JobRecord | undefined> {
    checkClaimInput(input)
    const sql = this.scope.sql
    const now = this.now()
    const nowIso = now.toISOString()
    await sql`
      UPDATE queue_jobs SET state = 'dead', lease_owner = NULL, lease_expires_at = NULL, last_error = ${LAST_LEASE_EXPIRED},
        updated_at = ${nowIso}, finished_at = ${nowIso}
      WHERE state = 'running' AND lease_expires_at <= ${nowIso} AND attempts >= max_attempts AND ${kindCondition(sql, input.kinds)}`
    const [row] = await sql<JobRow[]>`
      WITH picked AS (
        SELECT seq FROM queue_jobs
        WHERE ((state = 'pending' AND run_at <= ${nowIso}) OR (state = 'running' AND lease_expires_at <= ${nowIso}))
          AND ${kindCondition(sql, input.kinds)} AND ${botCondition(sql, input.skipBots)}
        ORDER BY run_at, seq LIMIT 1
        FOR UPDATE SKIP LOCKED
      )
      UPDATE queue_jobs q SET state = 'running', attempts = q.attempts + 1, lease_owner = ${input.workerId},
        lease_expires_at = ${isoAfter(now, input.leaseMs)}, updated_at = ${nowIso}
      FROM picked WHERE q.seq = picked.seq RETURNING q.*`
    return row ? jobRowToRecord(row) : undefined
  }

  /**
   * Extends the lease to now + `leaseMs`; false when the worker no longer holds it.
   *
   * @example
   * ```ts
   * if (!(await queue.heartbeat(job.id, 'host:42:0', 30_000))) controller.abort()
   * ```
   */
  async heartbeat(jobId: string, workerId: string, leaseMs: number): Promise<boolean> {
    requirePositiveMs('heartbeat: leaseMs', leaseMs)
    const now = this.now()
    const result = await this.scope.sql`
      UPDATE queue_jobs SET lease_expires_at = ${isoAfter(now, leaseMs)}, updated_at = ${now.toISOString()}
      WHERE id = ${jobId} AND state = 'running' AND lease_owner = ${workerId}`
    return result.count === 1
  }

  /**
   * Marks the job completed; false when the worker no longer holds its lease.
   *
   * @example
   * ```ts
   * await queue.complete(job.id, 'host:42:0') // true
   * ```
   */
  async complete(jobId: string, workerId: string): Promise<boolean> {
    const nowIso = this.now().toISOString()
    const result = await this.scope.sql`
      UPDATE queue_jobs SET state = 'completed', lease_owner = NULL, lease_expires_at = NULL, updated_at = ${nowIso}, finished_at = ${nowIso}
      WHERE id = ${jobId} AND state = 'running' AND lease_owner = ${workerId}`
    return result.count === 1
  }

  /**
   * Records a failed attempt: `pending` again at now + `jobRetryDelayMs(attempts)`, or `dead` after
   * `maxAttempts` or with `retry: false`. `undefined` when the worker no longer holds the lease.
   *
   * @example
   * ```ts
   * (await queue.fail(job.id, 'host:42:0', { error: 'upstream timed out' }))?.state // 'pending'
   * ```
   */
  async fail(jobId: string, workerId: string, input: FailInput): Promise<JobRecord | undefined> {
    const sql = this.scope.sql
    const [held] = await sql<Array<{ attempts: number; max_attempts: number }>>`
      SELECT attempts, max_attempts FROM queue_jobs WHERE id = ${jobId} AND state = 'running' AND lease_owner = ${workerId}`
    if (!held) return undefined
    const now = this.now()
    const nowIso = now.toISOString()
    const exhausted = input.retry === false || held.attempts >= held.max_attempts
    // Guarded by the lease and the attempt read above: a worker that lost the job meanwhile changes nothing.
    const [row] = exhausted
      ? await sql<JobRow[]>`
          UPDATE queue_jobs SET state = 'dead', lease_owner = NULL, lease_expires_at = NULL, last_error = ${input.error},
            updated_at = ${nowIso}, finished_at = ${nowIso}
          WHERE id = ${jobId} AND state = 'running' AND lease_owner = ${workerId} AND attempts = ${held.attempts} RETURNING *`
      : await sql<JobRow[]>`
          UPDATE queue_jobs SET state = 'pending', run_at = ${isoAfter(now, jobRetryDelayMs(held.attempts))}, lease_owner = NULL,
            lease_expires_at = NULL, last_error = ${input.error}, updated_at = ${nowIso}
          WHERE id = ${jobId} AND state = 'running' AND lease_owner = ${workerId} AND attempts = ${held.attempts} RETURNING *`
    return row ? jobRowToRecord(row) : undefined
  }

  /**
   * A job by id.
   *
   * @example
   * ```ts
   * (await queue.get('job_01K86HD0D5T3HFCGBEKQJFNKAD'))?.state
   * ```
   */
  async get(jobId: string): Promise<JobRecord | undefined> {
    const [row] = await this.scope.sql<JobRow[]>`SELECT * FROM queue_jobs WHERE id = ${jobId}`
    return row ? jobRowToRecord(row) : undefined
  }

  /**
   * Jobs by state and kind, oldest first; `limit` 50 by default, at most 500.
   *
   * @example
   * ```ts
   * await queue.list({ state: 'dead', kind: 'tables.import', limit: 20 })
   * ```
   */
  async list(query: JobListQuery = {}): Promise<JobRecord[]> {
    const limit = listLimit(query)
    const sql = this.scope.sql
    const state = query.state !== undefined ? sql`AND state = ${query.state}` : sql``
    const kind = query.kind !== undefined ? sql`AND kind = ${query.kind}` : sql``
    const rows = await sql<JobRow[]>`SELECT * FROM queue_jobs WHERE true ${state} ${kind} ORDER BY seq LIMIT ${limit}`
    return rows.map(jobRowToRecord)
  }

  /**
   * The earliest `runAt` of a pending job or lease expiry of a running one (of these kinds).
   *
   * @example
   * ```ts
   * const due = await queue.nextDueAt(['tables.import'])
   * ```
   */
  async nextDueAt(kinds?: ReadonlyArray<string>): Promise<Date | undefined> {
    const sql = this.scope.sql
    const [row] = await sql<Array<{ due: string | null }>>`
      SELECT least(
        (SELECT min(run_at) FROM queue_jobs WHERE state = 'pending' AND ${kindCondition(sql, kinds)}),
        (SELECT min(lease_expires_at) FROM queue_jobs WHERE state = 'running' AND ${kindCondition(sql, kinds)})
      ) AS due`
    return row?.due ? new Date(row.due) : undefined
  }
}
