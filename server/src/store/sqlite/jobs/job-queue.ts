import type { Statement } from 'better-sqlite3'
import type { Clock } from '../../clock.js'
import { portMethods } from '../../port-methods.js'
import { isoAfter, jobRowToRecord, type JobRow } from '../../jobs/job-row.js'
import { checkClaimInput, checkEnqueueInput, LAST_LEASE_EXPIRED, listLimit, requirePositiveMs } from '../../jobs/job-input.js'
import { jobRetryDelayMs } from '../../jobs/retry-delay.js'
import type { ClaimInput, EnqueueInput, FailInput, JobListQuery, JobRecord } from '../../jobs/types.js'
import { newJobId } from '../../jobs/ids.js'
import type { Sqlite } from '../connect.js'



// Kinds are bound as one JSON array so each query stays a single cached statement whatever the number of kinds.
const KIND_FILTER = '(@kinds IS NULL OR kind IN (SELECT value FROM json_each(@kinds)))'
// The bots at their share of the slots, bound the same way (decision 1463); a job without a botId is never skipped.
const BOT_FILTER = `(@skipBots IS NULL OR json_extract(payload_json, '$.botId') IS NULL
  OR json_extract(payload_json, '$.botId') NOT IN (SELECT value FROM json_each(@skipBots)))`

const SQL = {
  insert: `INSERT INTO queue_jobs (id, kind, payload_json, state, attempts, max_attempts, dedupe_key, run_at, created_at, updated_at)
    VALUES (@id, @kind, @payload, 'pending', 0, @maxAttempts, @dedupeKey, @runAt, @now, @now)
    ON CONFLICT DO NOTHING RETURNING *`,
  live: `SELECT * FROM queue_jobs WHERE kind = ? AND dedupe_key = ? AND state IN ('pending', 'running')`,
  byId: 'SELECT * FROM queue_jobs WHERE id = ?',
  buryExhausted: `UPDATE queue_jobs SET state = 'dead', lease_owner = NULL, lease_expires_at = NULL, last_error = @error,
      updated_at = @now, finished_at = @now
    WHERE state = 'running' AND lease_expires_at <= @now AND attempts >= max_attempts AND ${KIND_FILTER}`,
  // The best candidate of each kind of due job, then the older of the two: each half walks its own index.
  nextDue: `SELECT seq FROM (
      SELECT * FROM (SELECT seq, run_at FROM queue_jobs WHERE state = 'pending' AND run_at <= @now AND ${KIND_FILTER} AND ${BOT_FILTER}
        ORDER BY run_at, seq LIMIT 1)
      UNION ALL
      SELECT * FROM (SELECT seq, run_at FROM queue_jobs WHERE state = 'running' AND lease_expires_at <= @now AND ${KIND_FILTER} AND ${BOT_FILTER}
        ORDER BY run_at, seq LIMIT 1)
    ) ORDER BY run_at, seq LIMIT 1`,
  claim: `UPDATE queue_jobs SET state = 'running', attempts = attempts + 1, lease_owner = @workerId, lease_expires_at = @leaseExpiresAt,
      updated_at = @now WHERE seq = @seq RETURNING *`,
  heartbeat: `UPDATE queue_jobs SET lease_expires_at = @leaseExpiresAt, updated_at = @now
    WHERE id = @id AND state = 'running' AND lease_owner = @workerId`,
  complete: `UPDATE queue_jobs SET state = 'completed', lease_owner = NULL, lease_expires_at = NULL, updated_at = @now, finished_at = @now
    WHERE id = @id AND state = 'running' AND lease_owner = @workerId`,
  held: `SELECT * FROM queue_jobs WHERE id = ? AND state = 'running' AND lease_owner = ?`,
  retry: `UPDATE queue_jobs SET state = 'pending', run_at = @runAt, lease_owner = NULL, lease_expires_at = NULL, last_error = @error,
      updated_at = @now WHERE seq = @seq RETURNING *`,
  bury: `UPDATE queue_jobs SET state = 'dead', lease_owner = NULL, lease_expires_at = NULL, last_error = @error, updated_at = @now,
      finished_at = @now WHERE seq = @seq RETURNING *`,
  nextDueAt: `SELECT min(due) FROM (
      SELECT min(run_at) AS due FROM queue_jobs WHERE state = 'pending' AND ${KIND_FILTER}
      UNION ALL
      SELECT min(lease_expires_at) AS due FROM queue_jobs WHERE state = 'running' AND ${KIND_FILTER}
    )`,
} as const


function kindsParam(kinds: ReadonlyArray<string> | undefined): string | null {
  return kinds === undefined ? null : JSON.stringify(kinds)
}


/**
 * The `JobQueue` port on the embedded SQLite database, synchronous: the same methods and parameters as the port,
 * returning values instead of promises (wrap it with `asyncPort(queue, jobQueueMethods)` to get the port).
 * Every time it writes comes from the clock it was given. Claims and enqueues run in `BEGIN IMMEDIATE`
 * transactions, so two processes sharing the database file never claim the same job nor queue two live jobs with
 * one dedupe key (the partial unique index holds even so).
 *
 * @example
 * ```ts
 * const db = openDatabase(':memory:')
 * runMigrations(db, jobsMigrations)
 * const queue = new SqliteJobQueue(db, systemClock)
 * queue.enqueue({ kind: 'files.expire', dedupeKey: 'sweep' })
 * const job = queue.claim({ workerId: 'host:42:0', leaseMs: 30_000 })
 * if (job) queue.complete(job.id, 'host:42:0')
 * ```
 */
export class SqliteJobQueue {
  private readonly statements = new Map<string, Statement<unknown[]>>()
  private readonly enqueueTx: (input: EnqueueInput & { maxAttempts: number }) => { job: JobRecord; created: boolean }
  private readonly claimTx: (input: ClaimInput) => JobRecord | undefined
  private readonly failTx: (jobId: string, workerId: string, input: FailInput) => JobRecord | undefined

  constructor(
    private readonly db: Sqlite,
    private readonly now: Clock,
  ) {
    // Built once: better-sqlite3 transaction functions are reusable, and `.immediate` takes the write lock up front.
    const enqueue = db.transaction((input: EnqueueInput & { maxAttempts: number }) => this.enqueueInTransaction(input))
    const claim = db.transaction((input: ClaimInput) => this.claimInTransaction(input))
    const fail = db.transaction((jobId: string, workerId: string, input: FailInput) => this.failInTransaction(jobId, workerId, input))
    this.enqueueTx = (input) => enqueue.immediate(input)
    this.claimTx = (input) => claim.immediate(input)
    this.failTx = (jobId, workerId, input) => fail.immediate(jobId, workerId, input)
  }

  /**
   * Queues a job; with a `dedupeKey` already pending or running for the kind, returns that job (`created: false`).
   *
   * @example
   * ```ts
   * const { job, created } = queue.enqueue({ kind: 'tables.import', payload: { tableJobId }, dedupeKey: tableJobId })
   * ```
   */
  enqueue(input: EnqueueInput): { job: JobRecord; created: boolean } {
    const maxAttempts = checkEnqueueInput(input)
    return this.enqueueTx({ ...input, maxAttempts })
  }

  /**
   * Claims the oldest due job (pending with `runAt` reached, or running with an expired lease) in one transaction,
   * and increments its `attempts`. `undefined` when nothing is due.
   *
   * @example
   * ```ts
   * const job = queue.claim({ workerId: 'host:42:0', kinds: ['tables.import'], leaseMs: 30_000 })
   * ```
   */
  claim(input: ClaimInput): JobRecord | undefined {
    checkClaimInput(input)
    return this.claimTx(input)
  }

  /**
   * Extends the lease to now + `leaseMs`; false when the worker no longer holds it.
   *
   * @example
   * ```ts
   * if (!queue.heartbeat(job.id, 'host:42:0', 30_000)) controller.abort()
   * ```
   */
  heartbeat(jobId: string, workerId: string, leaseMs: number): boolean {
    requirePositiveMs('heartbeat: leaseMs', leaseMs)
    const now = this.now()
    const result = this.statement(SQL.heartbeat).run({ id: jobId, workerId, leaseExpiresAt: isoAfter(now, leaseMs), now: now.toISOString() })
    return result.changes === 1
  }

  /**
   * Marks the job completed; false when the worker no longer holds its lease.
   *
   * @example
   * ```ts
   * queue.complete(job.id, 'host:42:0') // true
   * ```
   */
  complete(jobId: string, workerId: string): boolean {
    return this.statement(SQL.complete).run({ id: jobId, workerId, now: this.now().toISOString() }).changes === 1
  }

  /**
   * Records a failed attempt: `pending` again at now + `jobRetryDelayMs(attempts)`, or `dead` once `attempts`
   * reached `maxAttempts` or with `retry: false`. `undefined` when the worker no longer holds the lease.
   *
   * @example
   * ```ts
   * queue.fail(job.id, 'host:42:0', { error: 'upstream timed out' })?.state // 'pending'
   * queue.fail(job.id, 'host:42:0', { error: 'bad CSV header', retry: false })?.state // 'dead'
   * ```
   */
  fail(jobId: string, workerId: string, input: FailInput): JobRecord | undefined {
    return this.failTx(jobId, workerId, input)
  }

  /**
   * A job by id.
   *
   * @example
   * ```ts
   * queue.get('job_01K86HD0D5T3HFCGBEKQJFNKAD')?.state
   * ```
   */
  get(jobId: string): JobRecord | undefined {
    const row = this.statement(SQL.byId).get(jobId) as JobRow | undefined
    return row ? jobRowToRecord(row) : undefined
  }

  /**
   * Jobs by state and kind, oldest first; `limit` 50 by default, at most 500.
   *
   * @example
   * ```ts
   * queue.list({ state: 'dead', kind: 'tables.import', limit: 20 })
   * ```
   */
  list(query: JobListQuery = {}): JobRecord[] {
    const limit = listLimit(query)
    // At most four statements: one per combination of filters, each able to use its index.
    const where = [query.state !== undefined ? 'state = @state' : '', query.kind !== undefined ? 'kind = @kind' : ''].filter(Boolean)
    const sql = `SELECT * FROM queue_jobs ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq LIMIT @limit`
    const rows = this.statement(sql).all({ state: query.state, kind: query.kind, limit }) as JobRow[]
    return rows.map(jobRowToRecord)
  }

  /**
   * The earliest `runAt` of a pending job or lease expiry of a running one (of these kinds): when a worker should
   * look again. It may be in the past: a job is due now.
   *
   * @example
   * ```ts
   * const due = queue.nextDueAt(['tables.import'])
   * const waitMs = due ? Math.max(0, due.getTime() - Date.now()) : 500
   * ```
   */
  nextDueAt(kinds?: ReadonlyArray<string>): Date | undefined {
    const due = this.statement(SQL.nextDueAt).pluck().get({ kinds: kindsParam(kinds) }) as string | null
    return due === null ? undefined : new Date(due)
  }

  private enqueueInTransaction(input: EnqueueInput & { maxAttempts: number }): { job: JobRecord; created: boolean } {
    const now = this.now()
    const nowIso = now.toISOString()
    const dedupeKey = input.dedupeKey ?? null
    const inserted = this.statement(SQL.insert).get({
      id: newJobId(now),
      kind: input.kind,
      payload: JSON.stringify(input.payload ?? null),
      maxAttempts: input.maxAttempts,
      dedupeKey,
      runAt: (input.runAt ?? now).toISOString(),
      now: nowIso,
    }) as JobRow | undefined
    if (inserted) return { job: jobRowToRecord(inserted), created: true }
    // The conflict is the live dedupe key, whose job is then found here; ids are 80 random bits and do not collide.
    const live = this.statement(SQL.live).get(input.kind, dedupeKey) as JobRow | undefined
    if (!live) throw new Error('enqueue: the insert conflicted but no live job has this dedupe key')
    return { job: jobRowToRecord(live), created: false }
  }

  private claimInTransaction(input: ClaimInput): JobRecord | undefined {
    const now = this.now()
    const nowIso = now.toISOString()
    const kinds = kindsParam(input.kinds)
    this.statement(SQL.buryExhausted).run({ now: nowIso, kinds, error: LAST_LEASE_EXPIRED })
    const skipBots = input.skipBots !== undefined && input.skipBots.length > 0 ? JSON.stringify(input.skipBots) : null
    const seq = this.statement(SQL.nextDue).pluck().get({ now: nowIso, kinds, skipBots }) as number | undefined
    if (seq === undefined) return undefined
    const row = this.statement(SQL.claim).get({ seq, workerId: input.workerId, leaseExpiresAt: isoAfter(now, input.leaseMs), now: nowIso }) as JobRow
    return jobRowToRecord(row)
  }

  private failInTransaction(jobId: string, workerId: string, input: FailInput): JobRecord | undefined {
    const held = this.statement(SQL.held).get(jobId, workerId) as JobRow | undefined
    if (!held) return undefined
    const now = this.now()
    const exhausted = input.retry === false || held.attempts >= held.max_attempts
    const params = { seq: held.seq, error: input.error, now: now.toISOString() }
    const row = exhausted
      ? (this.statement(SQL.bury).get(params) as JobRow)
      : (this.statement(SQL.retry).get({ ...params, runAt: isoAfter(now, jobRetryDelayMs(held.attempts)) }) as JobRow)
    return jobRowToRecord(row)
  }

  private statement(sql: string): Statement<unknown[]> {
    let statement = this.statements.get(sql)
    if (!statement) {
      statement = this.db.prepare<unknown[]>(sql)
      this.statements.set(sql, statement)
    }
    return statement
  }
}

/**
 * The methods of the `JobQueue` port, for `asyncPort(queue, jobQueueMethods)`. The compiler checks that none is
 * missing and that each exists on `SqliteJobQueue` with the port's name.
 *
 * @example
 * ```ts
 * const jobs: JobQueue = asyncPort(new SqliteJobQueue(db, now), jobQueueMethods)
 * ```
 */
export const jobQueueMethods = portMethods.jobs satisfies ReadonlyArray<keyof SqliteJobQueue>
