/** What a call that waited too long for the open transaction is told: most likely it was made from inside it. */
function waitedTooLong(what: string, ms: number): Error {
  return new Error(
    `${what} waited ${ms} ms for the open transaction to end. A store call made inside backend.transaction(fn) through the ` +
      'backend itself (or a transaction begun there) waits for that very transaction: use the ports fn receives (tx.files, tx.tables, ...)',
  )
}

/**
 * Serializes transactions on the one SQLite connection. While a transaction is open across awaits, every other
 * store call waits for it (a call on the same connection would otherwise see, or join, its uncommitted writes);
 * transactions run one after another. A call made inside a transaction's callback through the backend's root
 * ports (instead of the `tx` ports), or a transaction begun there, would wait for itself: every wait is bounded
 * (`waitLimitMs`), and a call that reaches the bound is refused with an error that says why, so `fn` sees a
 * rejection instead of hanging. Transactions are short (a few store calls), so an honest wait never nears it.
 * (The gate keeps no per-call context such as AsyncLocalStorage: in Node 20 that slows every promise of the
 * process.)
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

  /**
   * @param waitLimitMs How long a call may wait for open transactions before it is refused (default 5000 ms).
   */
  constructor(private readonly waitLimitMs = 5_000) {}

  /**
   * `undefined` when no transaction is open (the call may run now), else a promise that settles when none is,
   * or rejects once the call waited `waitLimitMs`.
   *
   * @example
   * ```ts
   * const wait = gate.idle(); if (wait) await wait
   * ```
   */
  idle(): Promise<void> | undefined {
    if (!this.open) return undefined
    return this.bounded('A store call', async () => {
      while (this.open) await this.open
    })
  }

  /**
   * Runs `fn` once every earlier transaction finished; other calls wait until it settles. Rejects, without
   * running `fn`, when its turn has not come within `waitLimitMs`.
   *
   * @example
   * ```ts
   * await gate.exclusive(async () => work())
   * ```
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    let abandoned = false
    const turn = this.tail
    const run = turn.then(async () => {
      if (abandoned) throw waitedTooLong('backend.transaction', this.waitLimitMs)
      let release!: () => void
      this.open = new Promise<void>((resolve) => (release = resolve))
      try {
        return await fn()
      } finally {
        this.open = undefined
        release()
      }
    })
    this.tail = run.then(
      () => undefined,
      () => undefined,
    )
    // An abandoned turn rejects `run` with nobody listening: its caller was already told.
    run.catch(() => undefined)
    // The wait for the turn is bounded; once it started, the transaction runs to its end.
    return this.bounded('backend.transaction', () => turn, () => (abandoned = true)).then(() => run)
  }

  private bounded(what: string, wait: () => Promise<void>, onTimeout?: () => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        onTimeout?.()
        reject(waitedTooLong(what, this.waitLimitMs))
      }, this.waitLimitMs)
      wait().then(
        () => {
          clearTimeout(timer)
          resolve()
        },
        (error: unknown) => {
          clearTimeout(timer)
          reject(error)
        },
      )
    })
  }
}
