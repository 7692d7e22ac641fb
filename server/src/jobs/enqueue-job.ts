import type { EnqueueInput, JobQueue, JobRecord } from '../store/jobs/index.js'
import type { JobSpec } from './job-definition.js'

/** What `enqueueJob` takes besides the job's definition: its payload (typed by the definition) and when and under which key it runs. */
export interface EnqueueJobInput<P> {
  readonly payload: P
  /** A second enqueue with the same key while the first is pending is the same job. */
  readonly dedupeKey?: string
  /** Not before this time (default now). */
  readonly runAt?: Date
}

/**
 * Queues a job of a definition: the payload is checked by its schema (a wrong one is a programming error and
 * throws), the retry policy comes from the definition.
 *
 * @example
 * ```ts
 * await enqueueJob(tx.jobs, importTableJob, { payload: { tableJobId, botId, tableId, fileId }, dedupeKey: tableJobId })
 * ```
 */
export async function enqueueJob<P>(queue: Pick<JobQueue, 'enqueue'>, spec: JobSpec<P>, input: EnqueueJobInput<P>): Promise<{ job: JobRecord; created: boolean }> {
  const payload = spec.payload.parse(input.payload)
  const job: EnqueueInput = {
    kind: spec.kind,
    payload,
    ...(spec.retry?.maxAttempts !== undefined ? { maxAttempts: spec.retry.maxAttempts } : {}),
    ...(input.dedupeKey !== undefined ? { dedupeKey: input.dedupeKey } : {}),
    ...(input.runAt !== undefined ? { runAt: input.runAt } : {}),
  }
  return queue.enqueue(job)
}
