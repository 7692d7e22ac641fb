import { ServiceError } from '../../http/service-error.js'
import type { CellOutcome } from '../../store/index.js'
import type { ComputedColumn } from './computed-column.js'

/** A workflow cell the bot answered: its value was written (`computed`) or its action failed (`failed`, the reason). */
export type WorkflowAnswer = Omit<CellOutcome, 'generation'>

/** Longest failure reason kept from a bot's answer. */
const MAX_REASON = 2_000

/**
 * The workflow cells an `updateTableRows` input answers (decision 1424): a row that sets a workflow column's value
 * settles that cell `computed`; a row with `computed: { <column>: { status: 'failed', error } }` settles it `failed`
 * with the bot's reason (the runtime sends this when the action fails). Anything else under `computed` is a 400
 * naming the field.
 *
 * @example
 * ```ts
 * workflowAnswers(view.columns, [{ id: 1, label: 'spam' }]) // [{ rowId: 1, column: 'label', status: 'computed', updatedBy: 'workflow:classify' }]
 * ```
 */
export function workflowAnswers(columns: readonly ComputedColumn[], rows: ReadonlyArray<Record<string, unknown> & { id: number }>): WorkflowAnswer[] {
  const workflows = new Map(columns.filter((column) => column.action === 'workflow').map((column) => [column.name, column]))
  const answers: WorkflowAnswer[] = []
  rows.forEach((row, index) => {
    const reported = readReported(row.computed, index)
    for (const [name, column] of workflows) {
      const updatedBy = `workflow:${column.workflowId ?? ''}`
      const failure = reported[name]
      if (failure !== undefined) answers.push({ rowId: row.id, column: name, status: 'failed', error: failure, updatedBy })
      else if (Object.hasOwn(row, name)) answers.push({ rowId: row.id, column: name, status: 'computed', updatedBy })
    }
  })
  return answers
}

/** The failures a row reports under `computed`: column name → reason. */
function readReported(value: unknown, index: number): Record<string, string> {
  if (value === undefined || value === null) return {}
  const field = `rows[${index}].computed`
  if (typeof value !== 'object' || Array.isArray(value)) throw new ServiceError('InvalidPayload', `${field}: expected an object of { status: 'failed', error } by column, received ${Array.isArray(value) ? 'an array' : typeof value}`)
  const failures: Record<string, string> = {}
  for (const [column, state] of Object.entries(value)) {
    const entry = state as { status?: unknown; error?: unknown } | null
    if (typeof entry !== 'object' || entry === null || entry.status !== 'failed' || typeof entry.error !== 'string') {
      throw new ServiceError('InvalidPayload', `${field}.${column}: expected { status: 'failed', error: <reason> } (a workflow's failure), received ${JSON.stringify(state)}`)
    }
    failures[column] = entry.error.slice(0, MAX_REASON)
  }
  return failures
}
