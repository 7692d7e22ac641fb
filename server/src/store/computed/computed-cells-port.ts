/** The state of one computed cell on the wire (`row.computed[column].status`). */
export type ComputedStatus = 'pending' | 'computed' | 'failed' | 'disabled'

/** One computed cell as stored: a row's column of a table, its status, and whether it waits to be recomputed. */
export interface ComputedCell {
  rowId: number
  column: string
  status: ComputedStatus
  /** Why the last computation failed (status `failed`). */
  error: string | null
  /** What computed it last (`ai:<model>`, `code`, `workflow:<id>`). */
  updatedBy: string | null
  updatedAt: string
  /** Waiting to be (re)computed. */
  stale: boolean
  /** Bumped by every reset: a computation settles only the generation it claimed. */
  generation: number
}

/** A cell to reset after a write: stale and pending (`stale: true`), or `disabled` (compute off for it). */
export interface CellReset {
  rowId: number
  column: string
  stale: boolean
}

/**
 * A cell written as it was elsewhere (an imported row, a duplicated table): its status, error, author and time
 * kept; `stale` cells wait to be computed as a reset one would. The generation starts anew.
 */
export type CellCopy = Omit<ComputedCell, 'generation'>

/** A claimed cell: what the computation settles with its token. */
export interface ClaimedCell {
  rowId: number
  column: string
  generation: number
}

/** How a computation ended: `computed` or `failed` with the reason; `updatedBy` names what computed it. */
export interface CellOutcome {
  rowId: number
  column: string
  generation: number
  status: 'computed' | 'failed'
  error?: string
  updatedBy: string
}

/**
 * The computed cells of table rows (issue 25, decision 1422): one record per row and computed column with its
 * status, error, author and time, a `stale` flag and a generation. Writes reset cells (stale, pending, the
 * generation bumped); a computation claims stale cells under a lease with a token and settles them only if the
 * generation it claimed is still current, so a write made during a computation wins. Kept apart from the rows so
 * both engines share one small schema.
 *
 * @example
 * ```ts
 * await tx.computed.resetCells('bot_1', 'table_01…', [{ rowId: 1, column: 'sentiment', stale: true }])
 * const { cells } = await backend.computed.claimCells('table_01…', { limit: 16, leaseMs: 30_000, token: 'w1' })
 * ```
 */
export interface ComputedCellsPort {
  /** Makes cells stale and pending (or `disabled`), clearing errors and claims; bumps their generation. */
  resetCells(botId: string, tableId: string, cells: ReadonlyArray<CellReset>): Promise<void>
  /**
   * Writes cells as they were elsewhere (imported rows that carry their statuses, a duplicated table's cells):
   * status, error, author and time as given, claims cleared, the generation bumped.
   */
  restoreCells(botId: string, tableId: string, cells: ReadonlyArray<CellCopy>): Promise<void>
  /**
   * Claims up to `limit` stale cells whose claim is free or ran out, lowest row first, for `leaseMs` under
   * `token`. Runs as one statement: two workers never hold the same cell.
   */
  claimCells(tableId: string, input: { limit: number; leaseMs: number; token: string }): Promise<ClaimedCell[]>
  /**
   * Settles a claimed cell (no longer stale) if `token` still holds it and its generation is the one claimed.
   * Returns false otherwise (a write reset it meanwhile: its new computation is still to come).
   */
  settleCell(tableId: string, token: string, outcome: CellOutcome): Promise<boolean>
  /**
   * Settles cells whatever their claim (a bot wrote a workflow column's answer, decision 1424): no longer stale, the
   * claim cleared. Only cells that are still stale change: a cell a newer write already settled keeps its state.
   */
  settleAnswered(tableId: string, outcomes: ReadonlyArray<Omit<CellOutcome, 'generation'>>): Promise<void>
  /** Gives a claimed cell back, still stale, not to be claimed again before `notBefore` (an unreachable model). */
  releaseCell(tableId: string, token: string, cell: ClaimedCell, notBefore: Date): Promise<void>
  /** The cells of some rows (every computed column they have a record for). */
  cellsOf(tableId: string, rowIds: ReadonlyArray<number>): Promise<ComputedCell[]>
  /** How many rows have at least one stale cell. */
  countStaleRows(tableId: string): Promise<number>
  /** Whether a table has stale cells claimable now (free, or their claim ran out). */
  hasDueCells(tableId: string): Promise<boolean>
  /** Every table with stale cells claimable now: what a sweep queues computations for. */
  tablesWithDueCells(): Promise<Array<{ botId: string; tableId: string }>>
  /** Deletes the cells of some rows, of some columns, or (neither given) of the whole table. */
  deleteCells(tableId: string, which?: { rowIds?: ReadonlyArray<number>; columns?: ReadonlyArray<string> }): Promise<void>
}
