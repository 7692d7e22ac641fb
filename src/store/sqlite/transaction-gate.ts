import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * Serializes transactions on the one SQLite connection. While a transaction is open across awaits, every other
 * store call waits for it (a call on the same connection would otherwise see, or join, its uncommitted writes);
 * transactions run one after another. Calls made inside a transaction's callback on the backend's root ports
 * (instead of the `tx` ports), and a transaction begun there, would wait for themselves forever: they throw a
 * clear error instead. "Inside" means inside the transaction that is open now: work a finished transaction's
 * callback started without awaiting (a timer, an event handler) is outside and waits like any other call.
 *
 * @example
 * ```ts
 * const gate = new TransactionGate()
 * await gate.exclusive(async () => { db.exec('BEGIN IMMEDIATE'); ...; db.exec('COMMIT') })
 * const wait = gate.idle(); if (wait) await wait // before a call outside any transaction
 * ```
 */
export class TransactionGate {
  private tail: Promise<void> = Promise.resolve()
  private open: Promise<void> | undefined
  /** The token of the transaction open now; its callback runs with it in `inside`. */
  private current: object | undefined
  private readonly inside = new AsyncLocalStorage<object>()

  /** Whether the caller runs inside the callback of the transaction open now. */
  private calledFromOpenTransaction(): boolean {
    return this.current !== undefined && this.inside.getStore() === this.current
  }

  /**
   * `undefined` when no transaction is open (the call may run now), else a promise that settles when none is.
   *
   * @example
   * ```ts
   * const wait = gate.idle(); if (wait) await wait
   * ```
   */
  idle(): Promise<void> | undefined {
    if (!this.open) return undefined
    if (this.calledFromOpenTransaction()) {
      throw new Error('A store call inside backend.transaction(fn) used the backend itself: use the ports fn receives (tx.files, tx.tables, ...)')
    }
    return this.waitForIdle()
  }

  private async waitForIdle(): Promise<void> {
    while (this.open) await this.open
  }

  /**
   * Runs `fn` once every earlier transaction finished; other calls wait until it settles. Rejects at once when
   * called from the callback of the transaction open now (it would wait for itself).
   *
   * @example
   * ```ts
   * await gate.exclusive(async () => work())
   * ```
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.calledFromOpenTransaction()) {
      return Promise.reject(
        new Error('backend.transaction(fn) was called inside another transaction\'s fn, which it would wait for forever: use the ports fn receives (tx.files, tx.tables, ...) instead'),
      )
    }
    const run = this.tail.then(async () => {
      let release!: () => void
      const token = {}
      this.open = new Promise<void>((resolve) => (release = resolve))
      this.current = token
      try {
        return await this.inside.run(token, fn)
      } finally {
        this.open = undefined
        this.current = undefined
        release()
      }
    })
    this.tail = run.then(
      () => undefined,
      () => undefined,
    )
    return run
  }
}
