import type { Clock } from '../../clock.js'
import type { CellCopy, CellOutcome, CellReset, ClaimedCell, ComputedCell, ComputedStatus } from '../../computed/index.js'
import type { Sqlite } from '../connect.js'

interface CellRow {
  row_id: number
  column_name: string
  status: string
  error: string | null
  updated_by: string | null
  updated_at: string
  stale: number
  generation: number
}

/**
 * The computed-cells port on SQLite. better-sqlite3 is synchronous, so each method (a claim's select and update
 * included) runs without interleaving; `asyncPort` makes it the async port.
 *
 * @example
 * ```ts
 * const cells = new SqliteComputedCells(db, systemClock)
 * cells.resetCells('bot_1', 'table_01…', [{ rowId: 1, column: 'sentiment', stale: true }])
 * ```
 */
export class SqliteComputedCells {
  constructor(
    private readonly db: Sqlite,
    private readonly now: Clock,
  ) {}

  /** See `ComputedCellsPort.resetCells`. @example `cells.resetCells(botId, tableId, [{ rowId: 1, column: 'label', stale: true }])` */
  resetCells(botId: string, tableId: string, cells: ReadonlyArray<CellReset>): void {
    if (cells.length === 0) return
    const at = this.now().toISOString()
    const upsert = this.db.prepare(`
      INSERT INTO computed_cells (table_id, row_id, column_name, bot_id, status, error, updated_by, updated_at, stale, generation)
      VALUES (?, ?, ?, ?, ?, NULL, NULL, ?, ?, 1)
      ON CONFLICT (table_id, row_id, column_name) DO UPDATE SET status = excluded.status, error = NULL, updated_at = excluded.updated_at,
        stale = excluded.stale, generation = computed_cells.generation + 1, claim_token = NULL, claimed_until = NULL`)
    this.db.transaction(() => {
      for (const cell of cells) upsert.run(tableId, cell.rowId, cell.column, botId, cell.stale ? 'pending' : 'disabled', at, cell.stale ? 1 : 0)
    })()
  }

  /** See `ComputedCellsPort.restoreCells`. @example `cells.restoreCells(botId, tableId, [{ rowId: 1, column: 'label', status: 'computed', error: null, updatedBy: 'code', updatedAt, stale: false }])` */
  restoreCells(botId: string, tableId: string, cells: ReadonlyArray<CellCopy>): void {
    if (cells.length === 0) return
    const upsert = this.db.prepare(`
      INSERT INTO computed_cells (table_id, row_id, column_name, bot_id, status, error, updated_by, updated_at, stale, generation)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
      ON CONFLICT (table_id, row_id, column_name) DO UPDATE SET status = excluded.status, error = excluded.error, updated_by = excluded.updated_by,
        updated_at = excluded.updated_at, stale = excluded.stale, generation = computed_cells.generation + 1, claim_token = NULL, claimed_until = NULL`)
    this.db.transaction(() => {
      for (const cell of cells) upsert.run(tableId, cell.rowId, cell.column, botId, cell.status, cell.error, cell.updatedBy, cell.updatedAt, cell.stale ? 1 : 0)
    })()
  }

  /** See `ComputedCellsPort.claimCells`. @example `cells.claimCells(tableId, { limit: 16, leaseMs: 30_000, token: 'w1' })` */
  claimCells(tableId: string, input: { limit: number; leaseMs: number; token: string }): ClaimedCell[] {
    const now = this.now()
    const nowIso = now.toISOString()
    const until = new Date(now.getTime() + input.leaseMs).toISOString()
    return this.db.transaction(() => {
      const due = this.db
        .prepare(
          `SELECT row_id, column_name, generation FROM computed_cells
           WHERE table_id = ? AND stale = 1 AND (claimed_until IS NULL OR claimed_until <= ?)
           ORDER BY row_id, column_name LIMIT ?`,
        )
        .all(tableId, nowIso, input.limit) as Array<{ row_id: number; column_name: string; generation: number }>
      const claim = this.db.prepare('UPDATE computed_cells SET claim_token = ?, claimed_until = ? WHERE table_id = ? AND row_id = ? AND column_name = ?')
      for (const cell of due) claim.run(input.token, until, tableId, cell.row_id, cell.column_name)
      return due.map((cell) => ({ rowId: cell.row_id, column: cell.column_name, generation: cell.generation }))
    })()
  }

  /** See `ComputedCellsPort.settleCell`. @example `cells.settleCell(tableId, 'w1', { rowId: 1, column: 'label', generation: 1, status: 'computed', updatedBy: 'code' })` */
  settleCell(tableId: string, token: string, outcome: CellOutcome): boolean {
    const result = this.db
      .prepare(
        `UPDATE computed_cells SET status = ?, error = ?, updated_by = ?, updated_at = ?, stale = 0, claim_token = NULL, claimed_until = NULL
         WHERE table_id = ? AND row_id = ? AND column_name = ? AND claim_token = ? AND generation = ?`,
      )
      .run(outcome.status, outcome.error ?? null, outcome.updatedBy, this.now().toISOString(), tableId, outcome.rowId, outcome.column, token, outcome.generation)
    return result.changes === 1
  }

  /** See `ComputedCellsPort.settleAnswered`. @example `cells.settleAnswered(tableId, [{ rowId: 1, column: 'label', status: 'computed', updatedBy: 'workflow:label' }])` */
  settleAnswered(tableId: string, outcomes: ReadonlyArray<Omit<CellOutcome, 'generation'>>): void {
    const statement = this.db.prepare(
      `UPDATE computed_cells SET status = ?, error = ?, updated_by = ?, updated_at = ?, stale = 0, claim_token = NULL, claimed_until = NULL
       WHERE table_id = ? AND row_id = ? AND column_name = ? AND stale = 1`,
    )
    const at = this.now().toISOString()
    for (const outcome of outcomes) statement.run(outcome.status, outcome.error ?? null, outcome.updatedBy, at, tableId, outcome.rowId, outcome.column)
  }

  /** See `ComputedCellsPort.releaseCell`. @example `cells.releaseCell(tableId, 'w1', claimed, new Date(Date.now() + 5_000))` */
  releaseCell(tableId: string, token: string, cell: ClaimedCell, notBefore: Date): void {
    this.db
      .prepare('UPDATE computed_cells SET claim_token = NULL, claimed_until = ? WHERE table_id = ? AND row_id = ? AND column_name = ? AND claim_token = ?')
      .run(notBefore.toISOString(), tableId, cell.rowId, cell.column, token)
  }

  /** See `ComputedCellsPort.cellsOf`. @example `cells.cellsOf(tableId, [1, 2])` */
  cellsOf(tableId: string, rowIds: ReadonlyArray<number>): ComputedCell[] {
    if (rowIds.length === 0) return []
    const found: ComputedCell[] = []
    // SQLite binds at most 32766 parameters: read in slices.
    for (let start = 0; start < rowIds.length; start += 500) {
      const slice = rowIds.slice(start, start + 500)
      const rows = this.db
        .prepare(`SELECT row_id, column_name, status, error, updated_by, updated_at, stale, generation FROM computed_cells WHERE table_id = ? AND row_id IN (${slice.map(() => '?').join(', ')})`)
        .all(tableId, ...slice) as CellRow[]
      for (const row of rows) found.push(cellOf(row))
    }
    return found
  }

  /** See `ComputedCellsPort.countStaleRows`. @example `cells.countStaleRows(tableId) // 3` */
  countStaleRows(tableId: string): number {
    return this.db.prepare('SELECT COUNT(DISTINCT row_id) FROM computed_cells WHERE table_id = ? AND stale = 1').pluck().get(tableId) as number
  }

  /** See `ComputedCellsPort.hasDueCells`. @example `cells.hasDueCells(tableId) // true` */
  hasDueCells(tableId: string): boolean {
    const nowIso = this.now().toISOString()
    return this.db.prepare('SELECT 1 FROM computed_cells WHERE table_id = ? AND stale = 1 AND (claimed_until IS NULL OR claimed_until <= ?) LIMIT 1').get(tableId, nowIso) !== undefined
  }

  /** See `ComputedCellsPort.tablesWithDueCells`. @example `cells.tablesWithDueCells() // [{ botId, tableId }]` */
  tablesWithDueCells(): Array<{ botId: string; tableId: string }> {
    const nowIso = this.now().toISOString()
    const rows = this.db
      .prepare('SELECT DISTINCT bot_id, table_id FROM computed_cells WHERE stale = 1 AND (claimed_until IS NULL OR claimed_until <= ?) ORDER BY table_id')
      .all(nowIso) as Array<{ bot_id: string; table_id: string }>
    return rows.map((row) => ({ botId: row.bot_id, tableId: row.table_id }))
  }

  /** See `ComputedCellsPort.deleteCells`. @example `cells.deleteCells(tableId, { rowIds: [4] })` */
  deleteCells(tableId: string, which: { rowIds?: ReadonlyArray<number>; columns?: ReadonlyArray<string> } = {}): void {
    const conditions = ['table_id = ?']
    const params: unknown[] = [tableId]
    if (which.rowIds) {
      if (which.rowIds.length === 0) return
      conditions.push(`row_id IN (${which.rowIds.map(() => '?').join(', ')})`)
      params.push(...which.rowIds)
    }
    if (which.columns) {
      if (which.columns.length === 0) return
      conditions.push(`column_name IN (${which.columns.map(() => '?').join(', ')})`)
      params.push(...which.columns)
    }
    this.db.prepare(`DELETE FROM computed_cells WHERE ${conditions.join(' AND ')}`).run(...params)
  }
}

function cellOf(row: CellRow): ComputedCell {
  return {
    rowId: Number(row.row_id),
    column: row.column_name,
    status: row.status as ComputedStatus,
    error: row.error,
    updatedBy: row.updated_by,
    updatedAt: row.updated_at,
    stale: Number(row.stale) === 1,
    generation: Number(row.generation),
  }
}
