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
