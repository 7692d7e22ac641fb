import { EventEmitter } from 'node:events'

/**
 * Tells the requests waiting in this process (`waitComputed`) that cells of a table settled, so they look again at
 * once instead of at their next poll. A computation on another server is seen by the poll.
 *
 * @example
 * ```ts
 * computeSignals.settled(tableId)
 * const stop = computeSignals.onSettled(tableId, () => check())
 * ```
 */
export const computeSignals = {
  emitter: new EventEmitter().setMaxListeners(0),
  /** Cells of `tableId` settled. */
  settled(tableId: string): void {
    this.emitter.emit(tableId)
  },
  /** Calls `listener` each time cells of `tableId` settle; returns the function that stops it. */
  onSettled(tableId: string, listener: () => void): () => void {
    this.emitter.on(tableId, listener)
    return () => this.emitter.off(tableId, listener)
  },
}
