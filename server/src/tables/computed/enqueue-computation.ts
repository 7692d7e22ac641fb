import { z } from 'zod'
import { enqueueJob, type JobSpec } from '../../jobs/index.js'
import type { JobQueue } from '../../store/index.js'

/** Kind of the job that computes a table's stale cells. */
export const COMPUTE_TABLE_JOB = 'tables.compute'

/** Payload of a `tables.compute` job. */
export interface ComputeTablePayload {
  botId: string
  tableId: string
}

/**
 * The `tables.compute` job as the code that queues it sees it (the handler, `computeTableJob`, is made from the
 * compute options).
 *
 * @example
 * ```ts
 * await enqueueJob(tx.jobs, computeTableSpec, { payload: { botId, tableId }, dedupeKey: tableId })
 * ```
 */
export const computeTableSpec: JobSpec<ComputeTablePayload> = {
  kind: COMPUTE_TABLE_JOB,
  payload: z.object({ botId: z.string(), tableId: z.string() }).strict() as z.ZodType<ComputeTablePayload>,
  retry: { maxAttempts: 10 },
}

/**
 * Queues the computation of a table's stale cells: one live job per table, so computations of a table run once
 * whatever the number of servers. Call it in the transaction of the write that made the cells stale.
 *
 * @example
 * ```ts
 * await backend.transaction(async (tx) => { ...; await enqueueComputation(tx.jobs, { botId, tableId }) })
 * ```
 */
export async function enqueueComputation(jobs: Pick<JobQueue, 'enqueue'>, payload: ComputeTablePayload): Promise<void> {
  await enqueueJob(jobs, computeTableSpec, { payload, dedupeKey: payload.tableId })
}
