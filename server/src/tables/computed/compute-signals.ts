import { EventEmitter } from 'node:events'

// Module-private: its inferred generic type (`EventEmitter<[never]>`) does not type-check under every @types/node a
// consumer of the declarations may have.
const emitter = new EventEmitter().setMaxListeners(0)

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
  /** Cells of `tableId` settled. */
  settled(tableId: string): void {
    emitter.emit(tableId)
  },
  /** Calls `listener` each time cells of `tableId` settle; returns the function that stops it. */
  onSettled(tableId: string, listener: () => void): () => void {
    emitter.on(tableId, listener)
    return () => emitter.off(tableId, listener)
  },
}
