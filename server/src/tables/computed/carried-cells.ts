import type { BackendPorts, CellCopy, CellReset, ComputedStatus } from '../../store/index.js'
import type { TableRecord } from '../../store/tables/index.js'
import { computedColumnsOf } from './computed-column.js'
import { enqueueComputation } from './enqueue-computation.js'

/** A row written with its values given elsewhere (an import, a restored dataset): its id and what it carried. */
export interface CarriedRow {
  id: number
  /** The row's `computed` as it came (an export's statuses), or absent. */
  computed?: unknown
}

/** The statuses an import keeps: they settle a value the row carries. Others are computed again. */
const KEPT: ReadonlySet<ComputedStatus> = new Set(['computed', 'failed'])

function keptCell(carried: unknown, rowId: number, column: string): CellCopy | undefined {
  if (typeof carried !== 'object' || carried === null || Array.isArray(carried)) return undefined
  const cell = (carried as Record<string, unknown>)[column]
  if (typeof cell !== 'object' || cell === null) return undefined
  const { status, error, updatedBy, updatedAt } = cell as Record<string, unknown>
  if (!KEPT.has(status as ComputedStatus) || typeof updatedAt !== 'string' || Number.isNaN(Date.parse(updatedAt))) return undefined
  return {
    rowId,
    column,
    status: status as ComputedStatus,
    error: status === 'failed' && typeof error === 'string' ? error : null,
    updatedBy: typeof updatedBy === 'string' ? updatedBy : null,
    updatedAt: new Date(updatedAt).toISOString(),
    stale: false,
  }
}

/**
 * Queues the computed cells of rows written with their own values (the import job, `botshelf import`), in the
 * transaction that writes them, as `createTableRows` does for its rows: every computed column of each row is reset
 * (pending and stale, or `disabled` when compute is off for it) and the table's computation queued. A cell the row
 * carries as `computed` or `failed` (a JSON export's `computed`) is kept as it was, with its value: exporting then
 * importing gives identical rows and costs no computation. Returns whether a computation was queued (wake the
 * jobs after the commit). A table without computed columns costs nothing.
 *
 * @example
 * ```ts
 * await backend.transaction(async (tx) => {
 *   const { ids } = await tx.tables.importRows(botId, table.id, rows)
 *   queued = await queueCarriedCells(tx, table, rows.map((row, i) => ({ id: ids[i]!, computed: row['computed'] })))
 * })
 * ```
 */
export async function queueCarriedCells(tx: Pick<BackendPorts, 'computed' | 'jobs'>, table: Pick<TableRecord, 'id' | 'botId' | 'schema' | 'isComputeEnabled'>, rows: readonly CarriedRow[]): Promise<boolean> {
  const columns = computedColumnsOf(table.schema)
  if (columns.length === 0 || rows.length === 0) return false
  const resets: CellReset[] = []
  const kept: CellCopy[] = []
  for (const row of rows) {
    for (const column of columns) {
      const cell = keptCell(row.computed, row.id, column.name)
      if (cell) kept.push(cell)
      else resets.push({ rowId: row.id, column: column.name, stale: table.isComputeEnabled && column.enabled })
    }
  }
  await tx.computed.resetCells(table.botId, table.id, resets)
  await tx.computed.restoreCells(table.botId, table.id, kept)
  const computes = resets.some((reset) => reset.stale)
  if (computes) await enqueueComputation(tx.jobs, { botId: table.botId, tableId: table.id })
  return computes
}

/**
 * Copies a table's computed cells to its duplicate (same row ids) in the transaction that made it: values and
 * statuses are the same inputs' results, so they are kept, not computed again; cells still waiting are waiting in
 * the copy too, and its computation is queued. Returns whether a computation was queued.
 *
 * @example
 * ```ts
 * const queued = await copyCells(tx, source, copy)
 * ```
 */
export async function copyCells(tx: Pick<BackendPorts, 'computed' | 'jobs' | 'tables'>, source: Pick<TableRecord, 'id' | 'botId'>, copy: Pick<TableRecord, 'id' | 'botId' | 'schema'>): Promise<boolean> {
  if (computedColumnsOf(copy.schema).length === 0) return false
  let computes = false
  for (let last = 0; ; ) {
    const page = await tx.tables.findRows(copy.botId, copy.id, { filter: { id: { $gt: last } }, select: ['id'], orderBy: 'id', orderDirection: 'asc', limit: 1000 })
    const ids = page.rows.map((row) => row.id)
    const cells = await tx.computed.cellsOf(source.id, ids)
    await tx.computed.restoreCells(copy.botId, copy.id, cells.map(({ generation: _generation, ...cell }) => cell))
    computes ||= cells.some((cell) => cell.stale)
    if (ids.length < 1000) break
    last = ids[ids.length - 1]!
  }
  if (computes) await enqueueComputation(tx.jobs, { botId: copy.botId, tableId: copy.id })
  return computes
}
