import type { AppServices } from '../http/env.js'
import type { TableJobChange } from '../store/index.js'
import type { TableJob } from 'botshelf/api'
import { tableJobEvent } from '../webhooks/event-drafts.js'

/**
 * Ends a table job (`completed` or `failed`) and records its `table.import.*` / `table.export.*` event in the same
 * transaction.
 *
 * @example
 * ```ts
 * await finishTableJob(services, tableJob.id, { status: 'completed', progress: 1 })
 * ```
 */
export async function finishTableJob(services: AppServices, tableJobId: string, change: TableJobChange & { status: 'completed' | 'failed' }): Promise<TableJob> {
  return services.webhooks.transaction(async (tx) => {
    const job = await tx.tables.updateJob(tableJobId, change)
    const table = await tx.tables.loadTable(job.botId, job.tableId).catch(() => undefined)
    const event = tableJobEvent(job, table?.name ?? job.tableId)
    return { result: job, events: event ? [event] : [] }
  })
}
