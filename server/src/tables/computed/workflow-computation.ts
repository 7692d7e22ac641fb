import type { Computation } from './computation.js'

/**
 * Workflow columns ask the bot through the `table.row.compute` storage event (issue 24), which this build does not
 * have yet: every workflow computation fails at once with a reason that says so.
 *
 * @example
 * ```ts
 * computeWithWorkflow('wf_1') // { kind: 'failed', reason: 'workflow columns are not available yet: ...' }
 * ```
 */
export function computeWithWorkflow(workflowId: string): Computation {
  return {
    kind: 'failed',
    reason: `workflow columns are not available yet: botshelf cannot ask the bot to run workflow "${workflowId}" until storage events (table.row.compute) land`,
    updatedBy: `workflow:${workflowId}`,
  }
}
