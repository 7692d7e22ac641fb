import type { Clock } from '../../clock.js'
import type { CellCopy, CellOutcome, CellReset, ClaimedCell, ComputedCell, ComputedCellsPort, ComputedStatus } from '../../computed/index.js'
import type { PgScope } from '../pg-scope.js'

interface CellRow {
  row_id: string | number
  column_name: string
  status: string
  error: string | null
  updated_by: string | null
  updated_at: string
  stale: boolean
  generation: number
}

/**
 * The computed-cells port on PostgreSQL. A claim is one statement locking the due cells with `FOR UPDATE SKIP
 * LOCKED`, so workers on several servers never hold the same cell.
 *
 * @example
 * ```ts
 * const cells = new PgComputedCells(rootScope(sql), systemClock)
 * await cells.resetCells('bot_1', 'table_01…', [{ rowId: 1, column: 'sentiment', stale: true }])
 * ```
 */
export class PgComputedCells implements ComputedCellsPort {
  constructor(
    private readonly scope: PgScope,
    private readonly now: Clock,
  ) {}

  /** See `ComputedCellsPort.resetCells`. @example `await cells.resetCells(botId, tableId, [{ rowId: 1, column: 'label', stale: true }])` */
  async resetCells(botId: string, tableId: string, cells: ReadonlyArray<CellReset>): Promise<void> {
    if (cells.length === 0) return
    const at = this.now().toISOString()
    const rows = cells.map((cell) => ({
      table_id: tableId,
      row_id: cell.rowId,
      column_name: cell.column,
      bot_id: botId,
      status: cell.stale ? 'pending' : 'disabled',
      updated_at: at,
      stale: cell.stale,
      generation: 1,
    }))
    const sql = this.scope.sql
    for (let start = 0; start < rows.length; start += 1000) {
      await sql`
        INSERT INTO computed_cells ${sql(rows.slice(start, start + 1000), 'table_id', 'row_id', 'column_name', 'bot_id', 'status', 'updated_at', 'stale', 'generation')}
        ON CONFLICT (table_id, row_id, column_name) DO UPDATE SET status = excluded.status, error = NULL, updated_at = excluded.updated_at,
          stale = excluded.stale, generation = computed_cells.generation + 1, claim_token = NULL, claimed_until = NULL`
    }
  }

  /** See `ComputedCellsPort.restoreCells`. @example `await cells.restoreCells(botId, tableId, [{ rowId: 1, column: 'label', status: 'computed', error: null, updatedBy: 'code', updatedAt, stale: false }])` */
  async restoreCells(botId: string, tableId: string, cells: ReadonlyArray<CellCopy>): Promise<void> {
    const rows = cells.map((cell) => ({
      table_id: tableId,
      row_id: cell.rowId,
      column_name: cell.column,
      bot_id: botId,
      status: cell.status,
      error: cell.error,
      updated_by: cell.updatedBy,
      updated_at: cell.updatedAt,
      stale: cell.stale,
      generation: 1,
    }))
    const sql = this.scope.sql
    for (let start = 0; start < rows.length; start += 1000) {
      await sql`
        INSERT INTO computed_cells ${sql(rows.slice(start, start + 1000), 'table_id', 'row_id', 'column_name', 'bot_id', 'status', 'error', 'updated_by', 'updated_at', 'stale', 'generation')}
        ON CONFLICT (table_id, row_id, column_name) DO UPDATE SET status = excluded.status, error = excluded.error, updated_by = excluded.updated_by,
          updated_at = excluded.updated_at, stale = excluded.stale, generation = computed_cells.generation + 1, claim_token = NULL, claimed_until = NULL`
    }
  }

  /** See `ComputedCellsPort.claimCells`. @example `await cells.claimCells(tableId, { limit: 16, leaseMs: 30_000, token: 'w1' })` */
  async claimCells(tableId: string, input: { limit: number; leaseMs: number; token: string }): Promise<ClaimedCell[]> {
    const now = this.now()
    const nowIso = now.toISOString()
    const until = new Date(now.getTime() + input.leaseMs).toISOString()
    const rows = await this.scope.sql<Array<{ row_id: string | number; column_name: string; generation: number }>>`
      UPDATE computed_cells c SET claim_token = ${input.token}, claimed_until = ${until}
      FROM (
        SELECT table_id, row_id, column_name FROM computed_cells
        WHERE table_id = ${tableId} AND stale AND (claimed_until IS NULL OR claimed_until <= ${nowIso})
        ORDER BY row_id, column_name LIMIT ${input.limit}
        FOR UPDATE SKIP LOCKED
      ) due
      WHERE c.table_id = due.table_id AND c.row_id = due.row_id AND c.column_name = due.column_name
      RETURNING c.row_id, c.column_name, c.generation`
    return rows
      .map((row) => ({ rowId: Number(row.row_id), column: row.column_name, generation: Number(row.generation) }))
      .sort((a, b) => a.rowId - b.rowId || (a.column < b.column ? -1 : a.column > b.column ? 1 : 0))
  }

  /** See `ComputedCellsPort.settleCell`. @example `await cells.settleCell(tableId, 'w1', { rowId: 1, column: 'label', generation: 1, status: 'computed', updatedBy: 'code' })` */
  async settleCell(tableId: string, token: string, outcome: CellOutcome): Promise<boolean> {
    const result = await this.scope.sql`
      UPDATE computed_cells SET status = ${outcome.status}, error = ${outcome.error ?? null}, updated_by = ${outcome.updatedBy},
        updated_at = ${this.now().toISOString()}, stale = false, claim_token = NULL, claimed_until = NULL
      WHERE table_id = ${tableId} AND row_id = ${outcome.rowId} AND column_name = ${outcome.column} AND claim_token = ${token} AND generation = ${outcome.generation}`
    return result.count === 1
  }

  /** See `ComputedCellsPort.settleAnswered`. @example `await cells.settleAnswered(tableId, [{ rowId: 1, column: 'label', status: 'computed', updatedBy: 'workflow:label' }])` */
  async settleAnswered(tableId: string, outcomes: ReadonlyArray<Omit<CellOutcome, 'generation'>>): Promise<void> {
    const at = this.now().toISOString()
    for (const outcome of outcomes) {
      await this.scope.sql`
        UPDATE computed_cells SET status = ${outcome.status}, error = ${outcome.error ?? null}, updated_by = ${outcome.updatedBy},
          updated_at = ${at}, stale = false, claim_token = NULL, claimed_until = NULL
        WHERE table_id = ${tableId} AND row_id = ${outcome.rowId} AND column_name = ${outcome.column} AND stale`
    }
  }

  /** See `ComputedCellsPort.releaseCell`. @example `await cells.releaseCell(tableId, 'w1', claimed, new Date(Date.now() + 5_000))` */
  async releaseCell(tableId: string, token: string, cell: ClaimedCell, notBefore: Date): Promise<void> {
    await this.scope.sql`
      UPDATE computed_cells SET claim_token = NULL, claimed_until = ${notBefore.toISOString()}
      WHERE table_id = ${tableId} AND row_id = ${cell.rowId} AND column_name = ${cell.column} AND claim_token = ${token}`
  }

  /** See `ComputedCellsPort.cellsOf`. @example `await cells.cellsOf(tableId, [1, 2])` */
  async cellsOf(tableId: string, rowIds: ReadonlyArray<number>): Promise<ComputedCell[]> {
    if (rowIds.length === 0) return []
    const rows = await this.scope.sql<CellRow[]>`
      SELECT row_id, column_name, status, error, updated_by, updated_at, stale, generation FROM computed_cells
      WHERE table_id = ${tableId} AND row_id = ANY(${[...rowIds]}::bigint[])`
    return rows.map(cellOf)
  }

  /** See `ComputedCellsPort.countStaleRows`. @example `await cells.countStaleRows(tableId) // 3` */
  async countStaleRows(tableId: string): Promise<number> {
    const [row] = await this.scope.sql<Array<{ count: string | number }>>`SELECT COUNT(DISTINCT row_id) AS count FROM computed_cells WHERE table_id = ${tableId} AND stale`
    return Number(row?.count ?? 0)
  }

  /** See `ComputedCellsPort.hasDueCells`. @example `await cells.hasDueCells(tableId) // true` */
  async hasDueCells(tableId: string): Promise<boolean> {
    const nowIso = this.now().toISOString()
    const rows = await this.scope.sql`SELECT 1 FROM computed_cells WHERE table_id = ${tableId} AND stale AND (claimed_until IS NULL OR claimed_until <= ${nowIso}) LIMIT 1`
    return rows.length > 0
  }

  /** See `ComputedCellsPort.tablesWithDueCells`. @example `await cells.tablesWithDueCells() // [{ botId, tableId }]` */
  async tablesWithDueCells(): Promise<Array<{ botId: string; tableId: string }>> {
    const nowIso = this.now().toISOString()
    const rows = await this.scope.sql<Array<{ bot_id: string; table_id: string }>>`
      SELECT DISTINCT bot_id, table_id FROM computed_cells WHERE stale AND (claimed_until IS NULL OR claimed_until <= ${nowIso}) ORDER BY table_id`
    return rows.map((row) => ({ botId: row.bot_id, tableId: row.table_id }))
  }

  /** See `ComputedCellsPort.deleteCells`. @example `await cells.deleteCells(tableId, { rowIds: [4] })` */
  async deleteCells(tableId: string, which: { rowIds?: ReadonlyArray<number>; columns?: ReadonlyArray<string> } = {}): Promise<void> {
    if (which.rowIds?.length === 0 || which.columns?.length === 0) return
    const sql = this.scope.sql
    const rows = which.rowIds ? sql`AND row_id = ANY(${[...which.rowIds]}::bigint[])` : sql``
    const columns = which.columns ? sql`AND column_name = ANY(${[...which.columns]}::text[])` : sql``
    await sql`DELETE FROM computed_cells WHERE table_id = ${tableId} ${rows} ${columns}`
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
    stale: row.stale,
    generation: Number(row.generation),
  }
}
