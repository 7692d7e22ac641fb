import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Backend } from '../backend.js'
import type { Clock } from '../clock.js'
import type { ComputedCellsPort } from './computed-cells-port.js'

const START = Date.parse('2026-03-01T12:00:00.000Z')
const TABLE = 'table_01JCOMPUTEDCONTRACT0000000'

/**
 * Declares the behaviour every `ComputedCellsPort` backend must have: resets, claims under a lease, settling only
 * the generation claimed, releases, counts and deletes. `open` gets the suite's clock (moved by hand).
 *
 * @example
 * ```ts
 * describeComputedCellsContract('sqlite', async (now) => ({ backend: await openSqliteBackend({ memory: true, now }), close }))
 * ```
 */
export function describeComputedCellsContract(name: string, open: (now: Clock) => Promise<{ backend: Backend; close(): Promise<void> }>): void {
  describe(`ComputedCellsPort contract: ${name}`, () => {
    let current = START
    const now: Clock = () => new Date(current)
    let cells: ComputedCellsPort
    let close: () => Promise<void>

    beforeEach(async () => {
      current = START
      const opened = await open(now)
      cells = opened.backend.computed
      close = opened.close
    })
    afterEach(async () => close())

    it('resets cells to pending or disabled, counts stale rows and reads cells back', async () => {
      await cells.resetCells('bot_1', TABLE, [
        { rowId: 1, column: 'label', stale: true },
        { rowId: 1, column: 'score', stale: true },
        { rowId: 2, column: 'label', stale: false },
      ])
      expect(await cells.countStaleRows(TABLE)).toBe(1)
      const read = await cells.cellsOf(TABLE, [1, 2, 3])
      expect(read.map((c) => [c.rowId, c.column, c.status, c.stale]).sort()).toEqual([
        [1, 'label', 'pending', true],
        [1, 'score', 'pending', true],
        [2, 'label', 'disabled', false],
      ])
      expect(await cells.tablesWithDueCells()).toEqual([{ botId: 'bot_1', tableId: TABLE }])
    })

    it('claims each due cell once, lowest row first, and settles only the generation claimed', async () => {
      await cells.resetCells('bot_1', TABLE, [3, 1, 2].map((rowId) => ({ rowId, column: 'label', stale: true })))
      const first = await cells.claimCells(TABLE, { limit: 2, leaseMs: 10_000, token: 'a' })
      expect(first.map((c) => c.rowId)).toEqual([1, 2])
      const second = await cells.claimCells(TABLE, { limit: 10, leaseMs: 10_000, token: 'b' })
      expect(second.map((c) => c.rowId)).toEqual([3])
      expect(await cells.hasDueCells(TABLE)).toBe(false)
      // A write resets row 2 while it is being computed: the old computation must not settle it.
      await cells.resetCells('bot_1', TABLE, [{ rowId: 2, column: 'label', stale: true }])
      expect(await cells.settleCell(TABLE, 'a', { ...first[0]!, status: 'computed', updatedBy: 'code' })).toBe(true)
      expect(await cells.settleCell(TABLE, 'a', { ...first[1]!, status: 'computed', updatedBy: 'code' })).toBe(false)
      expect(await cells.settleCell(TABLE, 'a', { ...second[0]!, status: 'failed', error: 'boom', updatedBy: 'code' })).toBe(false)
      expect(await cells.settleCell(TABLE, 'b', { ...second[0]!, status: 'failed', error: 'boom', updatedBy: 'code' })).toBe(true)
      const read = await cells.cellsOf(TABLE, [1, 2, 3])
      const byRow = new Map(read.map((c) => [c.rowId, c]))
      expect(byRow.get(1)).toMatchObject({ status: 'computed', stale: false, updatedBy: 'code', error: null })
      expect(byRow.get(2)).toMatchObject({ status: 'pending', stale: true, generation: 2 })
      expect(byRow.get(3)).toMatchObject({ status: 'failed', stale: false, error: 'boom' })
      expect(await cells.countStaleRows(TABLE)).toBe(1)
    })

    it('lets a claim run out, and a released cell wait until its time', async () => {
      await cells.resetCells('bot_1', TABLE, [{ rowId: 1, column: 'label', stale: true }])
      const [claimed] = await cells.claimCells(TABLE, { limit: 1, leaseMs: 1_000, token: 'a' })
      current += 1_001
      expect(await cells.claimCells(TABLE, { limit: 1, leaseMs: 1_000, token: 'b' })).toHaveLength(1)
      await cells.releaseCell(TABLE, 'b', claimed!, new Date(current + 5_000))
      expect(await cells.claimCells(TABLE, { limit: 1, leaseMs: 1_000, token: 'c' })).toEqual([])
      expect(await cells.tablesWithDueCells()).toEqual([])
      current += 5_000
      expect(await cells.claimCells(TABLE, { limit: 1, leaseMs: 1_000, token: 'c' })).toEqual([{ rowId: 1, column: 'label', generation: 1 }])
    })

    it('settles answered cells whatever their claim, leaving cells that are no longer stale alone', async () => {
      await cells.resetCells('bot_1', TABLE, [1, 2].map((rowId) => ({ rowId, column: 'label', stale: true })))
      const claimed = await cells.claimCells(TABLE, { limit: 1, leaseMs: 60_000, token: 'a' })
      await cells.releaseCell(TABLE, 'a', claimed[0]!, new Date(current + 60_000))
      await cells.settleAnswered(TABLE, [
        { rowId: 1, column: 'label', status: 'computed', updatedBy: 'workflow:label' },
        { rowId: 2, column: 'label', status: 'failed', error: 'no answer', updatedBy: 'workflow:label' },
      ])
      await cells.settleAnswered(TABLE, [{ rowId: 1, column: 'label', status: 'failed', error: 'late', updatedBy: 'workflow:label' }])
      const byRow = new Map((await cells.cellsOf(TABLE, [1, 2])).map((c) => [c.rowId, c]))
      expect(byRow.get(1)).toMatchObject({ status: 'computed', stale: false, updatedBy: 'workflow:label', error: null })
      expect(byRow.get(2)).toMatchObject({ status: 'failed', stale: false, error: 'no answer' })
      expect(await cells.countStaleRows(TABLE)).toBe(0)
    })

    it('restores cells as given (status, error, author, time), bumping the generation and clearing claims', async () => {
      await cells.resetCells('bot_1', TABLE, [{ rowId: 1, column: 'label', stale: true }])
      await cells.claimCells(TABLE, { limit: 1, leaseMs: 60_000, token: 'a' })
      const at = '2026-01-02T03:04:05.000Z'
      await cells.restoreCells('bot_1', TABLE, [
        { rowId: 1, column: 'label', status: 'computed', error: null, updatedBy: 'ai:m', updatedAt: at, stale: false },
        { rowId: 2, column: 'label', status: 'failed', error: 'no answer', updatedBy: 'code', updatedAt: at, stale: false },
        { rowId: 3, column: 'label', status: 'pending', error: null, updatedBy: null, updatedAt: at, stale: true },
      ])
      const byRow = new Map((await cells.cellsOf(TABLE, [1, 2, 3])).map((c) => [c.rowId, c]))
      expect(byRow.get(1)).toEqual({ rowId: 1, column: 'label', status: 'computed', error: null, updatedBy: 'ai:m', updatedAt: at, stale: false, generation: 2 })
      expect(byRow.get(2)).toMatchObject({ status: 'failed', error: 'no answer', updatedBy: 'code', stale: false, generation: 1 })
      expect(byRow.get(3)).toMatchObject({ status: 'pending', stale: true })
      expect(await cells.claimCells(TABLE, { limit: 10, leaseMs: 1_000, token: 'b' })).toEqual([{ rowId: 3, column: 'label', generation: 1 }])
    })

    it('deletes the cells of rows, of columns, or of the whole table', async () => {
      await cells.resetCells('bot_1', TABLE, [1, 2, 3].flatMap((rowId) => ['a', 'b'].map((column) => ({ rowId, column, stale: true }))))
      await cells.deleteCells(TABLE, { rowIds: [1] })
      await cells.deleteCells(TABLE, { columns: ['b'] })
      expect((await cells.cellsOf(TABLE, [1, 2, 3])).map((c) => `${c.rowId}${c.column}`).sort()).toEqual(['2a', '3a'])
      await cells.deleteCells(TABLE)
      expect(await cells.cellsOf(TABLE, [1, 2, 3])).toEqual([])
    })
  })
}
