import type { Row } from 'botshelf/api'
import type { AppServices } from '../../http/env.js'
import type { BackendPorts, TablesPort } from '../../store/index.js'
import type { TableRecord } from '../../store/tables/index.js'
import { cellResetsAfterWrite, type WrittenRow } from './cell-resets.js'
import { computedColumnsOf, type ComputedColumn } from './computed-column.js'
import { enqueueComputation } from './enqueue-computation.js'
import { readRowsWithComputedState, withComputedState } from './row-computed-state.js'
import { waitComputed } from './wait-computed.js'
import type { StorageEventDraft } from '../../webhooks/storage-event.js'
import type { WorkflowAnswer } from './workflow-answers.js'

/** A table and its computed columns, as a request about its rows needs them. */
export interface ComputedTableView {
  table: TableRecord
  /** In computation order; empty for a table without computed columns. */
  columns: ComputedColumn[]
}

/**
 * The table and its computed columns.
 *
 * @example
 * ```ts
 * const view = await loadComputedView(backend.tables, botId, 'reviewsTable')
 * ```
 */
export async function loadComputedView(tables: Pick<TablesPort, 'loadTable'>, botId: string, ref: string): Promise<ComputedTableView> {
  const table = await tables.loadTable(botId, ref)
  return { table, columns: computedColumnsOf(table.schema) }
}

/**
 * Runs a write of rows and, in the same transaction, records its storage events (decision 1411), resets the cells
 * it made due and queues the table's computation: an acknowledged write always has its events and its computation
 * queued. `answers` are the workflow cells the write answers (see `workflowAnswers`).
 *
 * @example
 * ```ts
 * const result = await commitRowWrite(services, view, (tx) => tx.tables.createRows(botId, ref, rows), (r) => r.rows.map((row) => ({ id: row.id, created: true })), (r) => rowsEvents('table.rows.created', botId, view.table.name, r.rows))
 * ```
 */
export async function commitRowWrite<T>(
  services: AppServices,
  view: ComputedTableView,
  write: (ports: BackendPorts) => Promise<T>,
  written: (result: T) => WrittenRow[],
  events: (result: T) => StorageEventDraft[] = () => [],
  answers: readonly WorkflowAnswer[] = [],
): Promise<T> {
  let computes = false
  const result = await services.webhooks.transaction(async (tx) => {
    const outcome = await write(tx)
    if (view.columns.length > 0) {
      const resets = cellResetsAfterWrite(view.table, view.columns, written(outcome))
      await tx.computed.resetCells(view.table.botId, view.table.id, resets)
      computes = resets.some((reset) => reset.stale)
      if (computes) await enqueueComputation(tx.jobs, { botId: view.table.botId, tableId: view.table.id })
      // A bot's answer to `table.row.compute` settles its cell with the write (decision 1424).
      if (answers.length > 0) await tx.computed.settleAnswered(view.table.id, answers)
    }
    return { result: outcome, events: events(outcome) }
  })
  if (computes) services.jobs.wake()
  return result
}

/**
 * The rows of a write as the answer carries them: with `waitComputed`, once their computations finished (or the
 * time limit passed: then with what is done), read again; then with their `computed` statuses and `stale` columns.
 *
 * @example
 * ```ts
 * const rows = await answerRows(services, view, result.rows, input.body.waitComputed === true, 30_000)
 * ```
 */
export async function answerRows(services: AppServices, view: ComputedTableView, rows: Row[], wait: boolean, waitMs: number): Promise<Row[]> {
  if (view.columns.length === 0) return rows
  if (!wait || rows.length === 0) return withComputedState(services.backend.computed, view.table.id, true, rows)
  const ids = rows.map((row) => row.id)
  await waitComputed(services.backend.computed, view.table.id, ids, waitMs)
  // Read again with their cells' states from one snapshot, as getTableRow and findTableRows (decision 1479).
  const again = await readRowsWithComputedState(services.backend, view.table.id, (tables) => tables.findRows(view.table.botId, view.table.id, { filter: { id: { $in: ids } }, limit: ids.length }))
  const byId = new Map(again.rows.map((row) => [row.id, row]))
  // A row deleted meanwhile is answered as written, with whatever cells it still has.
  const gone = await withComputedState(services.backend.computed, view.table.id, true, rows.filter((row) => !byId.has(row.id)))
  for (const row of gone) byId.set(row.id, row)
  return rows.map((row) => byId.get(row.id)!)
}

/**
 * Every row id of a table, lowest first, read in pages (for a definition change that makes every row stale).
 *
 * @example
 * ```ts
 * const ids = await allRowIds(tx.tables, botId, table.id)
 * ```
 */
export async function allRowIds(tables: Pick<TablesPort, 'findRows'>, botId: string, tableId: string): Promise<number[]> {
  const ids: number[] = []
  for (let last = 0; ; ) {
    const page = await tables.findRows(botId, tableId, { filter: { id: { $gt: last } }, select: ['id'], orderBy: 'id', orderDirection: 'asc', limit: 1000 })
    for (const row of page.rows) ids.push(row.id)
    if (page.rows.length < 1000) return ids
    last = page.rows[page.rows.length - 1]!.id
  }
}
