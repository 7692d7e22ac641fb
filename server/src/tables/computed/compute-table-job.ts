import { randomUUID } from 'node:crypto'
import type { Row } from 'botshelf/api'
import type { AppServices, ServiceJob } from '../../http/env.js'
import { defineJob } from '../../jobs/index.js'
import type { ClaimedCell } from '../../store/index.js'
import { TablesStoreError, tableColumns, type TableRecord } from '../../store/tables/index.js'
import { enqueueRowEmbedding } from '../../search/rows/index.js'
import { computeWithModel } from './ai-computation.js'
import { computeWithCode } from './code-computation.js'
import type { CodeSandbox } from './sandbox/index.js'
import type { Computation } from './computation.js'
import { computedColumnsOf, type ComputedColumn } from './computed-column.js'
import type { ResolvedComputeOptions } from './compute-options.js'
import { computeSignals } from './compute-signals.js'
import { computeTableSpec, type ComputeTablePayload } from './enqueue-computation.js'
import { askWorkflow } from './workflow-computation.js'

/** Cells claimed per round. */
const CLAIM_BATCH = 64
/** Bounds of the wait before an unreachable model is asked again. */
const MIN_RETRY_MS = 500
const MAX_RETRY_MS = 5 * 60_000

/**
 * The `tables.compute` job: claims the table's stale cells (under a lease, lowest row first) and computes them, at
 * most `concurrency` at once, each row's cells in dependency order. A value is written to the row and its cell
 * settled in one transaction, only if no write reset the cell meanwhile; a failure settles the cell `failed` with
 * its reason; an unreachable model gives the cell back, still pending, to be tried after the model's
 * `Retry-After` (the sweep queues the table again). Loops until no due cell is left. The settling writes of one run go
 * one at a time (decision 1485); a round that fails gives back the cells it had not settled, due at once, before the
 * job's retry.
 *
 * @example
 * ```ts
 * const feature: ServiceFeature = { name: 'tables', jobs: [computeTableJob(resolveComputeOptions(), sharedCodeSandbox(createCodeSandbox, {}))] }
 * ```
 */
export function computeTableJob(options: ResolvedComputeOptions, codeSandbox: { get(): CodeSandbox | undefined }): ServiceJob<ComputeTablePayload> {
  return defineJob({
    ...computeTableSpec,
    async run({ payload, services, signal }) {
      await new TableComputation(services, options, payload, codeSandbox).computeAll(signal)
    },
  })
}

/** One run of the job over one table. */
class TableComputation {
  private readonly token = randomUUID()
  private modelDown = false
  private wroteSearchable = false
  /** The tail of the queue of settling writes (see `serially`). */
  private writes: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly services: AppServices,
    private readonly options: ResolvedComputeOptions,
    private readonly payload: ComputeTablePayload,
    private readonly codeSandbox: { get(): CodeSandbox | undefined },
  ) {}

  async computeAll(signal: AbortSignal): Promise<void> {
    const { backend } = this.services
    const { botId, tableId } = this.payload
    let table: TableRecord
    try {
      table = await backend.tables.loadTable(botId, tableId)
    } catch (error) {
      // The table is gone: so are its cells.
      if (error instanceof TablesStoreError && error.type === 'ResourceNotFound') return backend.computed.deleteCells(tableId)
      throw error
    }
    const columns = new Map(computedColumnsOf(table.schema).map((column) => [column.name, column]))
    const order = [...columns.keys()]
    while (!signal.aborted && !this.modelDown) {
      const claimed = await backend.computed.claimCells(tableId, { limit: CLAIM_BATCH, leaseMs: this.options.cellLeaseMs, token: this.token })
      if (claimed.length === 0) break
      const byRow = new Map<number, ClaimedCell[]>()
      for (const cell of claimed) byRow.set(cell.rowId, [...(byRow.get(cell.rowId) ?? []), cell])
      const rows = [...byRow.entries()]
      // Cells claimed here and not yet settled, given back or left to a bot: what a failure must give back.
      const open = new Set(claimed)
      // A shared cursor over the rows: `concurrency` workers, each computing one row's cells in order. After a
      // failure no worker takes another row; the others finish theirs.
      let next = 0
      let failure: { error: unknown } | undefined
      const worker = async () => {
        while (next < rows.length && failure === undefined) {
          const [rowId, cells] = rows[next++]!
          cells.sort((a, b) => order.indexOf(a.column) - order.indexOf(b.column))
          try {
            await this.computeRow(table, columns, rowId, cells, open)
          } catch (error) {
            failure ??= { error }
          }
        }
      }
      await Promise.all(Array.from({ length: Math.min(this.options.concurrency, rows.length) }, worker))
      computeSignals.settled(tableId)
      if (failure !== undefined) {
        // Given back now, the cells are the retry's (or another server's) at once, not after their lease.
        await this.giveBackAll(tableId, open)
        throw failure.error
      }
      if (claimed.length < CLAIM_BATCH && !(await backend.computed.hasDueCells(tableId))) break
    }
    if (this.wroteSearchable) await enqueueRowEmbedding(this.services, { botId, tableId })
  }

  /** Computes the claimed cells of one row in dependency order, each seeing the values computed before it. */
  private async computeRow(table: TableRecord, columns: ReadonlyMap<string, ComputedColumn>, rowId: number, cells: ClaimedCell[], open: Set<ClaimedCell>): Promise<void> {
    const { backend } = this.services
    let row: Row
    try {
      row = await backend.tables.getRow(table.botId, table.id, rowId)
    } catch (error) {
      if (error instanceof TablesStoreError && error.type === 'ResourceNotFound') {
        await backend.computed.deleteCells(table.id, { rowIds: [rowId] })
        for (const cell of cells) open.delete(cell)
        return
      }
      throw error
    }
    // Columns of this row left pending in this run: what reads them waits for them.
    const waiting = new Set<string>()
    // Cells of this row still stale but not claimed here: what reads them waits too.
    const pendingElsewhere = await this.pendingElsewhere(table, columns, rowId, cells)
    const giveBack = async (cell: ClaimedCell, waitMs: number) => {
      waiting.add(cell.column)
      await backend.computed.releaseCell(table.id, this.token, cell, new Date(this.services.now().getTime() + waitMs))
    }
    for (const cell of cells) {
      row = await this.computeCell(table, columns, cell, row, { waiting, pendingElsewhere, giveBack })
      open.delete(cell)
    }
  }

  /** Computes, settles or gives back one claimed cell of a row; returns the row as the next cell sees it. */
  private async computeCell(
    table: TableRecord,
    columns: ReadonlyMap<string, ComputedColumn>,
    cell: ClaimedCell,
    row: Row,
    { waiting, pendingElsewhere, giveBack }: { waiting: Set<string>; pendingElsewhere: ReadonlySet<string>; giveBack(cell: ClaimedCell, waitMs: number): Promise<void> },
  ): Promise<Row> {
    const { backend } = this.services
    const rowId = cell.rowId
    const column = columns.get(cell.column)
    if (!column) {
      await backend.computed.deleteCells(table.id, { rowIds: [rowId], columns: [cell.column] })
      return row
    }
    if (!table.isComputeEnabled || !column.enabled) {
      await backend.computed.resetCells(table.botId, table.id, [{ rowId, column: cell.column, stale: false }])
      return row
    }
    const blocking = column.dependencies.find((name) => pendingElsewhere.has(name))
    if (blocking !== undefined) {
      // A bot's answer resets this cell with its write (decision 1424); the wait only bounds a lost answer.
      await giveBack(cell, columns.get(blocking)?.action === 'workflow' ? this.options.workflowAnswerMs : MIN_RETRY_MS)
      return row
    }
    if ((this.modelDown && column.action !== 'workflow') || column.dependencies.some((name) => waiting.has(name))) {
      await giveBack(cell, MIN_RETRY_MS)
      return row
    }
    if (column.action === 'workflow') {
      // The bot computes it: the cell waits for its answer, and what reads it waits too.
      const asked = await askWorkflow(this.services, table, column, row, cell, this.token, this.options.workflowAnswerMs)
      if (asked.kind === 'asked') waiting.add(cell.column)
      else await this.settle(table, cell, asked)
      return row
    }
    const outcome = await this.compute(column, row)
    if (outcome.kind === 'unavailable') {
      this.modelDown = true
      const wait = Math.min(MAX_RETRY_MS, Math.max(MIN_RETRY_MS, outcome.retryAfterMs))
      this.services.logger.log('warn', `the ${column.action === 'ai' ? 'language model' : 'code sandbox'} is unavailable: computed cells stay pending`, { tableId: table.id, retryInMs: wait, reason: outcome.reason })
      await giveBack(cell, wait)
      return row
    }
    const written = await this.settle(table, cell, outcome)
    return written ? { ...row, [cell.column]: written.value } : row
  }

  /**
   * The computed columns of a row whose cells are stale but not in this claim: a workflow waiting for its bot, or a
   * cell given back earlier (a model outage) and due again later than the cells that read it. What reads them waits,
   * so a chain never computes from a value about to change.
   */
  private async pendingElsewhere(table: TableRecord, columns: ReadonlyMap<string, ComputedColumn>, rowId: number, cells: readonly ClaimedCell[]): Promise<Set<string>> {
    if (![...columns.values()].some((column) => column.dependencies.some((name) => columns.has(name)))) return new Set()
    const claimedHere = new Set(cells.map((cell) => cell.column))
    const states = await this.services.backend.computed.cellsOf(table.id, [rowId])
    return new Set(states.filter((state) => state.stale && !claimedHere.has(state.column)).map((state) => state.column))
  }

  private async compute(column: ComputedColumn, row: Row): Promise<Computation> {
    const inputs: Record<string, unknown> = {}
    for (const name of column.dependencies) inputs[name] = Object.hasOwn(row, name) ? row[name] : null
    if (column.action === 'ai') return computeWithModel(this.services.languageModel, column, { ...row, ...inputs })
    return computeWithCode(this.codeSandbox.get(), column, inputs)
  }

  /**
   * Runs this run's settling writes one at a time. A table's row writes queue on its lock anyway; sent together by
   * `concurrency` workers on PostgreSQL, they lose serialization races to each other (and to another server's)
   * until one runs out of retries and fails the job. The computations themselves stay concurrent.
   */
  private serially<T>(write: () => Promise<T>): Promise<T> {
    const result = this.writes.then(write)
    this.writes = result.catch(() => undefined)
    return result
  }

  /** Gives back, due at once, the claimed cells a failed round left open; a failure to do so leaves them to their lease. */
  private async giveBackAll(tableId: string, open: ReadonlySet<ClaimedCell>): Promise<void> {
    const now = this.services.now()
    for (const cell of open) {
      try {
        await this.services.backend.computed.releaseCell(tableId, this.token, cell, now)
      } catch (error) {
        this.services.logger.log('warn', 'a computed cell could not be given back after a failure: it waits for its claim to expire', { tableId, rowId: cell.rowId, column: cell.column, error: error instanceof Error ? error.message : String(error) })
      }
    }
  }

  /** Writes a value and settles its cell in one transaction; a failure only settles. Returns the value written, if any. */
  private settle(table: TableRecord, cell: ClaimedCell, outcome: Exclude<Computation, { kind: 'unavailable' }>): Promise<{ value: unknown } | undefined> {
    return this.serially(() => this.settleNow(table, cell, outcome))
  }

  private async settleNow(table: TableRecord, cell: ClaimedCell, outcome: Exclude<Computation, { kind: 'unavailable' }>): Promise<{ value: unknown } | undefined> {
    const { backend } = this.services
    if (outcome.kind === 'value') {
      try {
        const written = await backend.transaction(async (tx) => {
          const settled = await tx.computed.settleCell(table.id, this.token, { ...cell, status: 'computed', updatedBy: outcome.updatedBy })
          if (!settled) return false
          await tx.tables.updateRows(table.botId, table.id, [{ id: cell.rowId, [cell.column]: outcome.value }])
          return true
        })
        if (!written) return undefined
        if (tableColumns(table.schema, table.physicalMap).searchable.some((column) => column.name === cell.column)) this.wroteSearchable = true
        return { value: outcome.value }
      } catch (error) {
        // The value does not fit the column (a pattern, a size): the cell fails with the store's reason.
        if (!(error instanceof TablesStoreError)) throw error
        await backend.computed.settleCell(table.id, this.token, { ...cell, status: 'failed', error: `the computed value was refused: ${error.message}`, updatedBy: outcome.updatedBy })
        return undefined
      }
    }
    await backend.computed.settleCell(table.id, this.token, { ...cell, status: 'failed', error: outcome.reason, updatedBy: outcome.updatedBy })
    return undefined
  }
}
