import type { ClaimInput, EnqueueInput, FailInput, JobListQuery, JobRecord } from './types.js'

/**
 * The durable job queue port. Jobs survive restarts and crashes: a job is claimed under a lease that its
 * worker renews (`heartbeat`); when a worker dies its lease expires and another worker claims the job again.
 * A failed attempt is retried with exponential backoff until `maxAttempts`, then the job goes `dead` and stays
 * listed. Delivery is at least once: a handler must tolerate running again after a crash.
 *
 * @example
 * ```ts
 * await backend.jobs.enqueue({ kind: 'tables.import', payload: { jobId }, dedupeKey: jobId })
 * const job = await backend.jobs.claim({ workerId: 'w1', leaseMs: 30_000 })
 * if (job) await backend.jobs.complete(job.id, 'w1')
 * ```
 */
export interface JobQueue {
  /** Queues a job; with a `dedupeKey` already pending or running for the kind, returns that job (`created: false`). */
  enqueue(input: EnqueueInput): Promise<{ job: JobRecord; created: boolean }>
  /**
   * Claims the oldest due job (pending with `runAt` reached, or running with an expired lease), atomically: two
   * workers never hold the same job. Increments `attempts`. `undefined` when nothing is due. A running job whose
   * lease expired on its last allowed attempt (its worker crashed `maxAttempts` times) goes `dead` instead of being
   * claimed again, so a job that kills its worker cannot crash workers forever.
   */
  claim(input: ClaimInput): Promise<JobRecord | undefined>
  /** Extends the lease; false when the worker no longer holds it (expired and claimed elsewhere, or finished). */
  heartbeat(jobId: string, workerId: string, leaseMs: number): Promise<boolean>
  /** Marks the job completed; false when the worker no longer holds its lease. */
  complete(jobId: string, workerId: string): Promise<boolean>
  /**
   * Records a failed attempt: back to `pending` with `runAt` pushed back exponentially (now +
   * `jobRetryDelayMs(attempts)`: 1 s, 2 s, 4 s, ... up to 5 min, no jitter), or `dead` after `maxAttempts` or with
   * `retry: false`. `undefined` when the worker no longer holds the lease.
   */
  fail(jobId: string, workerId: string, input: FailInput): Promise<JobRecord | undefined>
  /** A job by id. */
  get(jobId: string): Promise<JobRecord | undefined>
  /** Jobs by state and kind, oldest first. */
  list(query?: JobListQuery): Promise<JobRecord[]>
  /** The earliest `runAt` of a pending job, or lease expiry of a running one: when a worker should look again. */
  nextDueAt(kinds?: ReadonlyArray<string>): Promise<Date | undefined>
}
