import { z } from 'zod'
import type { AppServices, ServiceJob } from '../../http/env.js'
import { defineJob, enqueueJob, type JobSpec } from '../../jobs/index.js'
import { enqueueComputation } from './enqueue-computation.js'

/** Kind of the recurring job that queues `tables.compute` for every table with due cells. */
export const COMPUTE_SWEEP_JOB = 'tables.compute-sweep'

const computeSweepSpec: JobSpec<Record<string, never>> = { kind: COMPUTE_SWEEP_JOB, payload: z.object({}).strict() as z.ZodType<Record<string, never>> }

/**
 * Queues the next sweep at `runAt` (one per interval slot).
 *
 * @example
 * ```ts
 * await scheduleComputeSweep(services, services.now(), 10_000)
 * ```
 */
export async function scheduleComputeSweep(services: AppServices, runAt: Date, intervalMs: number): Promise<void> {
  const slot = Math.floor(runAt.getTime() / intervalMs)
  await enqueueJob(services.backend.jobs, computeSweepSpec, { payload: {}, dedupeKey: `${COMPUTE_SWEEP_JOB}:${slot}`, runAt })
}

/**
 * The recurring `tables.compute-sweep` job: every table with stale cells that are free to claim gets a
 * `tables.compute` job. It is what resumes computations after a restart (their claims ran out), after a model
 * outage (the wait it asked for passed), or when a write landed while the table's job was finishing.
 *
 * @example
 * ```ts
 * const feature: ServiceFeature = { name: 'tables', jobs: [computeSweepJob(10_000)] }
 * ```
 */
export function computeSweepJob(intervalMs: number): ServiceJob {
  return defineJob({
    ...computeSweepSpec,
    async run({ services }) {
      const due = await services.backend.computed.tablesWithDueCells()
      for (const table of due) await enqueueComputation(services.backend.jobs, table)
      if (due.length > 0) services.jobs.wake()
      await scheduleComputeSweep(services, new Date(services.now().getTime() + intervalMs), intervalMs)
    },
  })
}
