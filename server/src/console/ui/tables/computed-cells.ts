import type { Row, Table } from 'botshelf/client'

/**
 * The computed columns of a table and the columns they read.
 *
 * @example
 * ```ts
 * computedColumns(table) // { sentiment: { action: 'ai', dependencies: ['review'] } }
 * ```
 */
export function computedColumns(table: Table): Record<string, { action: string; dependencies: string[]; text: string }> {
  const found: Record<string, { action: string; dependencies: string[]; text: string }> = {}
  for (const [name, column] of Object.entries(table.schema.properties)) {
    const computed = column['x-zui'].computed
    if (!computed) continue
    const body = computed.action === 'ai' ? (computed.prompt ?? '') : computed.action === 'code' ? (computed.code ?? '') : `workflow ${computed.workflowId ?? ''}`
    found[name] = { action: computed.action, dependencies: computed.dependencies ?? [], text: `${computed.action}${computed.enabled === false ? ' (off)' : ''}: ${body}` }
  }
  return found
}

/**
 * What a computed cell shows besides its value: nothing once computed, else its status, and the error as a tip.
 *
 * @example
 * ```ts
 * cellStatus(row, 'sentiment') // { label: 'failed', title: 'the model refused...' }
 * ```
 */
export function cellStatus(row: Row, column: string): { label: string; title: string } | undefined {
  const state = row.computed?.[column]
  const stale = row.stale?.includes(column) === true
  if (!state && !stale) return undefined
  if (state?.status === 'computed' && !stale) return undefined
  const label = stale ? 'pending' : (state?.status ?? 'pending')
  return { label, title: state?.error ?? (stale ? 'waiting to be computed' : label) }
}

/**
 * The update that recomputes a row's computed columns: its dependency columns written back with their current
 * values (a write of a column makes the computed columns reading it due). `undefined` when nothing is read.
 *
 * @example
 * ```ts
 * await client.updateTableRows({ table: table.name, rows: [recomputeUpdate(table, row)!] })
 * ```
 */
export function recomputeUpdate(table: Table, row: Row): (Record<string, unknown> & { id: number }) | undefined {
  const computed = computedColumns(table)
  const read = new Set(Object.values(computed).flatMap((column) => column.dependencies))
  if (read.size === 0) return undefined
  const update: Record<string, unknown> & { id: number } = { id: row.id }
  for (const name of read) update[name] = row[name] ?? null
  return update
}

/** A computed column's definition as the editor holds it: `action: ''` is a column that is not computed. */
export interface ComputedDraft {
  action: '' | 'ai' | 'code' | 'workflow'
  prompt: string
  model: string
  code: string
  workflowId: string
  dependencies: string[]
  enabled: boolean
}

/**
 * The editor's draft of a column's `x-zui.computed` (an empty one for a column that is not computed).
 *
 * @example
 * ```ts
 * computedDraft(table.schema.properties.sentiment) // { action: 'ai', prompt: 'Sentiment: {{review}}', dependencies: ['review'], enabled: true, ... }
 * ```
 */
export function computedDraft(column: Table['schema']['properties'][string]): ComputedDraft {
  const computed = column['x-zui'].computed
  return {
    action: computed?.action ?? '',
    prompt: computed?.prompt ?? '',
    model: computed?.model ?? '',
    code: computed?.code ?? '',
    workflowId: computed?.workflowId ?? '',
    dependencies: [...(computed?.dependencies ?? [])],
    enabled: computed?.enabled !== false,
  }
}

/**
 * The column definition that `updateTable` takes for a draft: the column's other settings kept, `x-zui.computed`
 * set from the draft (only the fields its action uses; an empty model is the service's default) or removed when the
 * action is `''`. The service checks it (a missing prompt, a cycle) and answers `staleColumns`.
 *
 * @example
 * ```ts
 * computedColumnUpdate(column, { ...draft, action: 'code', code: 'return row.a * 2', dependencies: ['a'] })
 * // { type: 'number', 'x-zui': { computed: { action: 'code', code: 'return row.a * 2', dependencies: ['a'], enabled: true } } }
 * ```
 */
export function computedColumnUpdate(column: Table['schema']['properties'][string], draft: ComputedDraft): Record<string, unknown> {
  const { 'x-zui': zui, ...rest } = column
  const { index: _index, computed: _computed, ...settings } = zui
  if (draft.action === '') return { ...rest, 'x-zui': settings }
  const computed: Record<string, unknown> = { action: draft.action }
  if (draft.action === 'ai') {
    computed['prompt'] = draft.prompt
    if (draft.model.trim() !== '') computed['model'] = draft.model.trim()
  }
  if (draft.action === 'code') computed['code'] = draft.code
  if (draft.action === 'workflow') computed['workflowId'] = draft.workflowId.trim()
  computed['dependencies'] = draft.dependencies
  computed['enabled'] = draft.enabled
  return { ...rest, 'x-zui': { ...settings, computed } }
}
