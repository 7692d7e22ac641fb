import { ApiError } from '../client/index.js'
import { makeHook, type Hook } from './define-hook.js'

/** Options of `workflowColumnsHook`. */
export interface WorkflowColumnsHookOptions {
  /**
   * The hook's name (default `workflowColumns`).
   * @example `name: 'computeWorkflowColumns'`
   */
  name?: string
  /**
   * Deadline of the whole hook: the action and the write back (default: the runtime's `defaultTimeoutMs`).
   * @example `timeoutMs: 60_000`
   */
  timeoutMs?: number
}

/** The longest failure reason sent back to the service. */
const MAX_REASON = 2_000

/**
 * The hook that computes workflow columns (issue 25, decision 1424): on a `table.row.compute` storage event it runs
 * the action named by the column's `workflowId` with the row as input and writes the value it returns to the
 * column with `updateTableRows`, which settles the cell `computed`. When the action is missing, fails, times out or
 * returns a value the column refuses, it writes `computed: { <column>: { status: 'failed', error } }` for the row
 * instead, which settles the cell `failed` with that reason. Add it to the bot's hooks and subscribe the receiver
 * to `table.row.compute`.
 *
 * @example
 * ```ts
 * const classify = defineAction({ name: 'classify', input: z.object({ text: z.string() }).loose(), output: z.string(), handler: ({ input }) => (input.text.includes('refund') ? 'billing' : 'other') })
 * const bot = defineBot({ actions: [classify] })
 * const runtime = bot.createRuntime({ hooks: [workflowColumnsHook()], client: { token, apiUrl } })
 * ```
 */
export function workflowColumnsHook(options: WorkflowColumnsHookOptions = {}): Hook<'afterIncoming', 'table.row.compute'> {
  return makeHook({
    name: options.name ?? 'workflowColumns',
    point: 'afterIncoming',
    types: ['table.row.compute'],
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    async handler({ event, client, runAction, logger }) {
      const { table, row, column, workflowId } = event.payload
      const fail = async (error: unknown) => {
        const reason = (error instanceof Error ? error.message : String(error)).slice(0, MAX_REASON)
        logger.warn(`workflow "${workflowId}" failed for ${table} row ${row.id} column ${column}: ${reason}`)
        await client.updateTableRows({ table, rows: [{ id: row.id, computed: { [column]: { status: 'failed', error: reason } } }] })
      }
      let value: unknown
      try {
        value = await runAction(workflowId, row)
      } catch (error) {
        return fail(error)
      }
      try {
        await client.updateTableRows({ table, rows: [{ id: row.id, [column]: value }] })
      } catch (error) {
        // A value the column refuses (its type, a pattern) is the workflow's failure, not the delivery's.
        if (!(error instanceof ApiError) || error.code !== 400) throw error
        await fail(error)
      }
    },
  })
}
