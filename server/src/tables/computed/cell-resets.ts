import type { CellReset } from '../../store/index.js'
import type { TableRecord } from '../../store/tables/index.js'
import { dependentColumns, type ComputedColumn } from './computed-column.js'

/** A row a write touched: created (every computed column is due) or updated (the columns it set). */
export type WrittenRow = { id: number; created: true } | { id: number; created: false; columns: readonly string[] }

/**
 * The cells a write makes due: on a new row every computed column; on an updated row the computed columns that
 * read a column it set, down their chains. A cell of a table with compute off, or of a column with
 * `enabled: false`, is reset `disabled` instead of pending.
 *
 * @example
 * ```ts
 * cellResetsAfterWrite(table, computedColumnsOf(table.schema), [{ id: 4, created: false, columns: ['review'] }])
 * // [{ rowId: 4, column: 'sentiment', stale: true }]
 * ```
 */
export function cellResetsAfterWrite(table: Pick<TableRecord, 'isComputeEnabled'>, columns: readonly ComputedColumn[], written: readonly WrittenRow[]): CellReset[] {
  const resets: CellReset[] = []
  for (const row of written) {
    const due = row.created ? columns : dependentColumns(columns, row.columns)
    for (const column of due) resets.push({ rowId: row.id, column: column.name, stale: table.isComputeEnabled && column.enabled })
  }
  return resets
}
