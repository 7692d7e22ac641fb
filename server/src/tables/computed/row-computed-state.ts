import type { Row } from 'botshelf/api'
import type { Backend, ComputedCellsPort, TablesPort } from '../../store/index.js'

/**
 * Reads rows of a table with computed columns and answers them with their cells' states, both from one snapshot
 * (decision 1479): read apart on PostgreSQL, a computation committing between the two reads answered a cell
 * `computed` beside the row's older value. `read` gets the snapshot's tables port and returns anything with `rows`
 * (a find's page, or one row wrapped); the answer is the same with the rows' states added.
 *
 * @example
 * ```ts
 * const page = await readRowsWithComputedState(backend, table.id, (tables) => tables.findRows(botId, table.id, query))
 * ```
 */
export function readRowsWithComputedState<T extends { rows: Row[] }>(backend: Pick<Backend, 'readSnapshot'>, tableId: string, read: (tables: TablesPort) => Promise<T>): Promise<T> {
  return backend.readSnapshot(async (ports) => {
    const found = await read(ports.tables)
    return { ...found, rows: await withComputedState(ports.computed, tableId, true, found.rows) }
  })
}

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
