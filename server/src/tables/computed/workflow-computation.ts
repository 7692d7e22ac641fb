import type { Row } from 'botshelf/api'
import type { AppServices } from '../../http/env.js'
import type { ClaimedCell } from '../../store/index.js'
import type { TableRecord } from '../../store/tables/index.js'
import { storageEventDraft } from '../../webhooks/storage-event.js'
import type { ComputedColumn } from './computed-column.js'

/** The storage event that asks a bot to compute a workflow column's cell. */
export const ROW_COMPUTE_EVENT = 'table.row.compute'

/** How asking the bot ended: the event is recorded (the cell waits for the answer), or nobody listens. */
export type WorkflowAsk = { kind: 'asked' } | { kind: 'failed'; reason: string; updatedBy: string }

/**
 * Asks the bot to compute a workflow cell (decision 1424): in one transaction, records the `table.row.compute`
 * storage event (`{ table, row, column, workflowId }`) in the outbox and gives the cell back, still pending, not to
 * be claimed again before `answerMs` (then the event is emitted again). The bot's answer is a write of the column
 * (`updateTableRows`), which settles the cell. A bot with no subscription to the type fails the cell at once.
 *
 * @example
 * ```ts
 * const asked = await askWorkflow(services, table, column, row, cell, token, 600_000)
 * ```
 */
export async function askWorkflow(services: AppServices, table: TableRecord, column: ComputedColumn, row: Row, cell: ClaimedCell, token: string, answerMs: number): Promise<WorkflowAsk> {
  const workflowId = column.workflowId ?? ''
  const queued = await services.backend.transaction(async (tx) => {
    const listeners = await tx.webhooks.subscribers(table.botId, ROW_COMPUTE_EVENT)
    if (listeners.length === 0) return 0
    const draft = storageEventDraft(ROW_COMPUTE_EVENT, table.botId, { table: table.name, row, column: column.name, workflowId }, `compute ${table.name} row ${row.id} column ${column.name} with workflow ${workflowId}`)
    const recorded = await services.webhooks.record(tx, [draft])
    await tx.computed.releaseCell(table.id, token, cell, new Date(services.now().getTime() + answerMs))
    return recorded
  })
  if (queued === 0) {
    return {
      kind: 'failed',
      reason: `bot "${table.botId}" has no webhook subscription to "${ROW_COMPUTE_EVENT}": subscribe its receiver (createWebhook with types ["${ROW_COMPUTE_EVENT}"]) so it can run workflow "${workflowId}"`,
      updatedBy: `workflow:${workflowId}`,
    }
  }
  services.webhooks.committed(queued)
  return { kind: 'asked' }
}
