import type { JobRecord } from '../store/jobs/index.js'

/** What a handler gets besides the job record. */
export interface JobContext<P = unknown> {
  /** The job's payload, typed by the handler (the queue stores JSON; the runner does not validate it). */
  payload: P
  /**
   * Aborted when the runner lost the job's lease (another worker may be running it) or stopped before the handler
   * finished. Pass it to fetches and check it between steps; work done after it fires is not recorded.
   */
  signal: AbortSignal
  /** This run's attempt number: 1 on the first run, then one more per retry or crash. */
  attempt: number
}

/**
 * Runs the jobs of one kind. Resolving completes the job; throwing retries it with backoff, or buries it at once
 * with `PermanentJobError`. Delivery is at least once: after a crash the same job runs again, so make the work
 * idempotent. The runner renews the lease while `run` is pending.
 *
 * @example
 * ```ts
 * const expireFiles: JobHandler<{ botId: string }> = {
 *   kind: 'files.expire',
 *   async run(job, { payload, signal }) {
 *     await sweepExpired(payload.botId, signal)
 *   },
 * }
 * ```
 */
export interface JobHandler<P = unknown> {
  /** The job kind it runs (`tables.import`, `files.expire`, ...): one handler per kind in a runner. */
  kind: string
  /** Does the work of one attempt. */
  run(job: JobRecord, context: JobContext<P>): Promise<void>
}

/**
 * Declares the handler of one job kind with a typed payload; one module per kind, its handler passed to the
 * `JobRunner`.
 *
 * @example
 * ```ts
 * export const importTable = defineJob<{ tableJobId: string }>({
 *   kind: 'tables.import',
 *   async run(job, { payload, signal, attempt }) {
 *     await runImport(payload.tableJobId, { signal, resume: attempt > 1 })
 *   },
 * })
 * ```
 */
export function defineJob<P = unknown>(definition: JobHandler<P>): JobHandler<P> {
  if (typeof definition.kind !== 'string' || definition.kind === '') throw new TypeError('defineJob: kind must be a non-empty string')
  if (typeof definition.run !== 'function') throw new TypeError(`defineJob(${definition.kind}): run must be a function`)
  return definition
}
