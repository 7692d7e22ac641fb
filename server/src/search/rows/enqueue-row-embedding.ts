import { z } from 'zod'
import type { AppServices } from '../../http/env.js'
import { enqueueJob, type JobSpec } from '../../jobs/index.js'

/** Kind of the job that embeds a table's stale rows. */
export const EMBED_TABLE_ROWS_JOB = 'tables.embed'

/** Payload of a `tables.embed` job. */
export interface EmbedTableRowsPayload {
  botId: string
  tableId: string
  /** How many times an unavailable embedder postponed the work. */
  deferrals?: number
}

/**
 * The `tables.embed` job as the code that queues it sees it: its kind and payload schema (the handler,
 * `embedTableRowsJob`, is made from the search options).
 *
 * @example
 * ```ts
 * await enqueueJob(services.backend.jobs, embedTableRowsSpec, { payload: { botId, tableId }, dedupeKey: tableId })
 * ```
 */
export const embedTableRowsSpec: JobSpec<EmbedTableRowsPayload> = {
  kind: EMBED_TABLE_ROWS_JOB,
  payload: z.object({ botId: z.string(), tableId: z.string(), deferrals: z.number().optional() }) as z.ZodType<EmbedTableRowsPayload>,
}

/**
 * Queues the embedding of a table's stale rows (one pending job per table: a second request while one waits is the
 * same job) and wakes the job runner. The rows were marked stale by the write itself; this only says "now".
 *
 * @example
 * ```ts
 * await enqueueRowEmbedding(services, { botId, tableId: table.id })
 * ```
 */
export async function enqueueRowEmbedding(services: AppServices, payload: EmbedTableRowsPayload, options: { runAt?: Date; dedupeKey?: string } = {}): Promise<void> {
  await enqueueJob(services.backend.jobs, embedTableRowsSpec, {
    payload,
    dedupeKey: options.dedupeKey ?? payload.tableId,
    ...(options.runAt ? { runAt: options.runAt } : {}),
  })
  if (!options.runAt) services.jobs.wake()
}
