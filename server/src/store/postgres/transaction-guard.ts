import { AsyncLocalStorage } from 'node:async_hooks'
import { BotshelfError } from 'botshelf/api'

/** The open callback of one transaction attempt; `open` turns false as soon as `fn` settles. */
interface Frame {
  open: boolean
}

/**
 * Knows whether the code running now was called from inside a `backend.transaction(fn)` callback that has not
 * ended. A call on the backend's own (root) ports from there would run outside the transaction on another
 * connection: it could wait on a row lock the transaction holds while the transaction waits for it (PostgreSQL
 * cannot see that deadlock, it spans two connections), or take the pool's last connection. It is refused
 * instead, with the same advice as on SQLite. Work `fn` started and left running counts as outside once `fn`
 * has ended.
 *
 * @example
 * ```ts
 * const guard = new TransactionGuard()
 * await guard.run(() => fn(txPorts))
 * guard.assertOutside('backend.files.getByKey') // throws when called from inside fn
 * ```
 */
export class TransactionGuard {
  private readonly frames = new AsyncLocalStorage<Frame>()

  /**
   * Runs a transaction callback, marking everything it calls as inside until it settles.
   *
   * @example
   * ```ts
   * await guard.run(() => fn(txPorts))
   * ```
   */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const frame: Frame = { open: true }
    try {
      return await this.frames.run(frame, fn)
    } finally {
      frame.open = false
    }
  }

  /**
   * Throws a `BotshelfError` `CALL_INSIDE_TRANSACTION` when called from inside an open transaction callback.
   *
   * @example
   * ```ts
   * guard.assertOutside('backend.transaction')
   * ```
   */
  assertOutside(what: string): void {
    if (this.frames.getStore()?.open) {
      throw new BotshelfError(
        'Internal',
        'CALL_INSIDE_TRANSACTION',
        `${what} was called inside backend.transaction(fn) through the backend itself: it would run outside the open transaction ` +
          'and could wait for it. Use the ports fn receives (tx.files, tx.tables, ...)',
      )
    }
  }
}
