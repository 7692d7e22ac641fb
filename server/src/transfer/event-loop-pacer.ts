import { setImmediate as nextTurn } from 'node:timers/promises'

/**
 * Keeps a long synchronous-looking loop from holding the event loop. Awaiting an async generator's next value
 * only runs microtasks, so a parser fed from memory (or a consumer that never does real I/O) would otherwise
 * starve timers and sockets until the whole file is done; {@link EventLoopPacer.pace} yields a full event-loop
 * turn (`setImmediate`) once enough time or bytes went by since the last one.
 *
 * @example
 * ```ts
 * const pacer = new EventLoopPacer()
 * for (const slice of slices) {
 *   parse(slice)
 *   await pacer.pace(slice.byteLength)
 * }
 * ```
 */
export class EventLoopPacer {
  private busySince = performance.now()
  private bytesSinceYield = 0

  constructor(
    /** Longest stretch of work between two yields, in milliseconds. */
    private readonly maxBusyMs = 10,
    /** Most bytes processed between two yields, whatever the clock says. */
    private readonly maxBytes = 1024 * 1024,
  ) {}

  /**
   * Records `bytes` of work done and yields to the event loop when the budget is spent.
   *
   * @example
   * ```ts
   * await pacer.pace(64 * 1024)
   * ```
   */
  async pace(bytes: number): Promise<void> {
    this.bytesSinceYield += bytes
    if (this.bytesSinceYield < this.maxBytes && performance.now() - this.busySince < this.maxBusyMs) return
    await nextTurn()
    this.bytesSinceYield = 0
    this.busySince = performance.now()
  }
}
