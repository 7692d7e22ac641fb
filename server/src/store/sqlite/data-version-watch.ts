import type { Statement } from 'better-sqlite3'
import type { Sqlite } from './connect.js'

/** The one watch of each connection, so every memory kept on it reads the same `PRAGMA data_version`. */
const watches = new WeakMap<Sqlite, DataVersionWatch>()

/**
 * Says whether another connection committed to the database since a moment this connection saw: SQLite's
 * `PRAGMA data_version` moves when one did (never for this connection's own commits). The watch keeps an `epoch`
 * that moves each time a read finds the value moved, so several memories kept on one connection (accepted tokens,
 * file records) compare their own last epoch with the current one instead of each reading the pragma at its own
 * pace. One watch per connection: {@link DataVersionWatch.of}.
 *
 * @example
 * ```ts
 * const watch = DataVersionWatch.of(db)
 * const seen = watch.read()
 * // ... later, before trusting anything remembered since `seen`:
 * if (watch.read() !== seen) forgetEverything()
 * ```
 */
export class DataVersionWatch {
  private readonly dataVersion: Statement<[]>
  private version: number
  private current = 0

  private constructor(db: Sqlite) {
    this.dataVersion = db.prepare<[]>('PRAGMA data_version').pluck()
    this.version = this.dataVersion.get() as number
  }

  /**
   * The watch of `db`, made on first use (its statement is compiled then).
   *
   * @example
   * ```ts
   * DataVersionWatch.of(db) === DataVersionWatch.of(db) // true
   * ```
   */
  static of(db: Sqlite): DataVersionWatch {
    let watch = watches.get(db)
    if (!watch) {
      watch = new DataVersionWatch(db)
      watches.set(db, watch)
    }
    return watch
  }

  /**
   * Reads `PRAGMA data_version` now (a short read transaction, ~2-3 µs) and returns the epoch: the same number as at
   * an earlier read exactly when no other connection committed in between. Call it before the statements whose
   * answer is to be kept, so a kept answer is never older than the epoch it is kept with.
   *
   * @example
   * ```ts
   * const epoch = watch.read()
   * const row = statement.get(id)
   * remember(row, epoch)
   * ```
   */
  read(): number {
    if (this.readThisTick) return this.current
    const version = this.dataVersion.get() as number
    if (version !== this.version) {
      this.version = version
      this.current++
    }
    // One read serves the rest of this callback of the event loop (decision 1235): everything that runs in it came
    // in before it started, so the state read now is already later than its arrival. Forgotten by a microtask queued
    // from the next tick, behind the continuations this callback already queued (a request's next step after its
    // token check) and before the next callback.
    this.readThisTick = true
    process.nextTick(this.endTickSoon)
    return this.current
  }

  private readThisTick = false
  private readonly endTick = (): void => {
    this.readThisTick = false
  }
  private readonly endTickSoon = (): void => queueMicrotask(this.endTick)
}
