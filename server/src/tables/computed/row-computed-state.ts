import type { Row } from 'botshelf/api'
import type { ComputedCellsPort } from '../../store/index.js'

/**
 * Rows with their `computed` statuses and `stale` columns, read from the computed cells: `computed[column] =
 * { status, error?, updatedBy?, updatedAt }`, and `stale` listing the columns waiting to be recomputed (absent when
 * none). Rows of a table without computed columns are returned as they are.
 *
 * @example
 * ```ts
 * const rows = await withComputedState(backend.computed, table.id, true, result.rows)
 * rows[0].computed.sentiment // { status: 'computed', updatedBy: 'ai:gpt-4o-mini', updatedAt: '…' }
 * ```
 */
export async function withComputedState<R extends Row>(cells: Pick<ComputedCellsPort, 'cellsOf'>, tableId: string, hasComputedColumns: boolean, rows: R[]): Promise<R[]> {
  if (!hasComputedColumns || rows.length === 0) return rows
  const found = await cells.cellsOf(tableId, rows.map((row) => row.id))
  const byRow = new Map<number, typeof found>()
  for (const cell of found) byRow.set(cell.rowId, [...(byRow.get(cell.rowId) ?? []), cell])
  return rows.map((row) => {
    const own = byRow.get(row.id)
    if (!own) return row
    const computed: Row['computed'] = { ...row.computed }
    const stale: string[] = []
    for (const cell of own) {
      computed[cell.column] = {
        status: cell.status,
        ...(cell.error !== null ? { error: cell.error } : {}),
        ...(cell.updatedBy !== null ? { updatedBy: cell.updatedBy } : {}),
        updatedAt: cell.updatedAt,
      }
      if (cell.stale) stale.push(cell.column)
    }
    return { ...row, computed, ...(stale.length > 0 ? { stale: stale.sort() } : {}) }
  })
}
