import type { Table } from 'botshelf/api'
import type { BackendPorts } from '../../store/index.js'
import type { TableRecord } from '../../store/tables/index.js'
import { checkComputedColumns, computedColumnsOf, definitionKey, dependentColumns } from './computed-column.js'
import { enqueueComputation } from './enqueue-computation.js'
import { allRowIds } from './computed-rows.js'

/**
 * After a table's schema or compute switch changed (inside the transaction of the change): refuses computed
 * columns that cannot run (a cycle, a missing dependency...), forgets the cells of columns no longer computed, and
 * makes every row's cells stale for the computed columns whose definition changed (or all of them when compute was
 * just switched on), down their chains. Returns those columns: `updateTable`'s `staleColumns`.
 *
 * @example
 * ```ts
 * const staleColumns = await applyComputedSchemaChange(tx, before, result.table)
 * ```
 */
export async function applyComputedSchemaChange(tx: BackendPorts, before: TableRecord | undefined, after: Table): Promise<string[]> {
  checkComputedColumns(after.schema)
  const now = computedColumnsOf(after.schema)
  const previous = new Map((before ? computedColumnsOf(before.schema) : []).map((column) => [column.name, column]))
  const gone = [...previous.keys()].filter((name) => !now.some((column) => column.name === name))
  if (before && gone.length > 0) await tx.computed.deleteCells(before.id, { columns: gone })
  const enabled = after.isComputeEnabled === true
  if (!before || !enabled || now.length === 0) return []
  const switchedOn = !before.isComputeEnabled
  const changed = now.filter((column) => column.enabled && (switchedOn || !previous.has(column.name) || definitionKey(previous.get(column.name)!) !== definitionKey(column) || !previous.get(column.name)!.enabled))
  if (changed.length === 0) return []
  const stale = [...new Set([...changed, ...dependentColumns(now, changed.map((column) => column.name))])].filter((column) => column.enabled)
  const ids = await allRowIds(tx.tables, before.botId, after.id)
  await tx.computed.resetCells(
    before.botId,
    after.id,
    ids.flatMap((rowId) => stale.map((column) => ({ rowId, column: column.name, stale: true }))),
  )
  if (ids.length > 0) await enqueueComputation(tx.jobs, { botId: before.botId, tableId: after.id })
  return stale.map((column) => column.name)
}
