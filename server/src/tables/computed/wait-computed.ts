import type { ComputedCellsPort } from '../../store/index.js'
import { computeSignals } from './compute-signals.js'

/** How often a waiting request looks again when no settlement in this process woke it (another server computes). */
const POLL_MS = 250

/**
 * Waits until no cell of `rowIds` is stale, or `timeoutMs` passed (then the caller answers with what is done).
 * Settlements in this process wake it at once; others are seen by a poll.
 *
 * @example
 * ```ts
 * const done = await waitComputed(backend.computed, table.id, [1, 2], 30_000) // false: timed out
 * ```
 */
export async function waitComputed(cells: Pick<ComputedCellsPort, 'cellsOf'>, tableId: string, rowIds: readonly number[], timeoutMs: number): Promise<boolean> {
  const settled = async () => !(await cells.cellsOf(tableId, rowIds)).some((cell) => cell.stale)
  if (rowIds.length === 0 || (await settled())) return true
  return new Promise<boolean>((resolve) => {
    let checking = false
    let again = false
    let done = false
    const finish = (result: boolean) => {
      if (done) return
      done = true
      clearTimeout(deadline)
      clearInterval(poll)
      stop()
      resolve(result)
    }
    const check = () => {
      if (checking) {
        again = true
        return
      }
      checking = true
      settled().then(
        (yes) => {
          checking = false
          if (yes) finish(true)
          else if (again) {
            again = false
            check()
          }
        },
        () => {
          checking = false
        },
      )
    }
    const stop = computeSignals.onSettled(tableId, check)
    const poll = setInterval(check, POLL_MS)
    const deadline = setTimeout(() => finish(false), timeoutMs)
  })
}
