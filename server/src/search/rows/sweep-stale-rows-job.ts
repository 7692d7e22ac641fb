import { z } from 'zod'
import type { AppServices, ServiceJob } from '../../http/env.js'
import { defineJob, enqueueJob, type JobSpec } from '../../jobs/index.js'
import { enqueueRowEmbedding } from './enqueue-row-embedding.js'
import type { TableSearchOptions } from './table-search-options.js'

/** Kind of the recurring job that queues `tables.embed` for every table with rows left to embed. */
export const SWEEP_STALE_ROWS_JOB = 'tables.embed-sweep'

/** The sweep's kind and payload (none) for the code that queues it; the handler is `sweepStaleRowsJob`. */
const sweepStaleRowsSpec: JobSpec<Record<string, never>> = { kind: SWEEP_STALE_ROWS_JOB, payload: z.object({}).strict() as z.ZodType<Record<string, never>> }

/**
 * Queues the next sweep at `runAt` (one per interval slot: a second call for the same slot is the same job).
 *
 * @example
 * ```ts
 * await scheduleStaleRowSweep(services, services.now(), 60_000)
 * ```
 */
export async function scheduleStaleRowSweep(services: AppServices, runAt: Date, intervalMs: number): Promise<void> {
  const slot = Math.floor(runAt.getTime() / intervalMs)
  await enqueueJob(services.backend.jobs, sweepStaleRowsSpec, { payload: {}, dedupeKey: `${SWEEP_STALE_ROWS_JOB}:${slot}`, runAt })
}

/**
 * The recurring `tables.embed-sweep` job: every table with stale rows that no job holds gets a `tables.embed` job.
 * It is what embeds rows after a restart, after a change of embedder, or when a write's own request to embed was
 * lost (the write committed, the process died before queuing); then it schedules itself again.
 *
 * @example
 * ```ts
 * const feature: ServiceFeature = { name: 'tables', jobs: [sweepStaleRowsJob(search, 60_000)] }
 * ```
 */
export function sweepStaleRowsJob(options: TableSearchOptions, intervalMs: number): ServiceJob {
  return defineJob({
    ...sweepStaleRowsSpec,
    async run({ services }) {
      const embedder = options.embedder
      if (!embedder) return
      const stale = await services.backend.tables.tablesWithStaleRows(embedder.id)
      for (const table of stale) await enqueueRowEmbedding(services, table)
      if (stale.length > 0) services.logger.log('info', 'queued the embedding of stale table rows', { tables: stale.length })
      await scheduleStaleRowSweep(services, new Date(services.now().getTime() + intervalMs), intervalMs)
    },
  })
}
