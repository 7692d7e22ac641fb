import { open } from 'node:fs/promises'

/**
 * Flushes one file to the disk (`fsync`); a missing file has nothing to flush.
 *
 * @example
 * ```ts
 * await fsyncFile('./.botshelf/botshelf.db-wal')
 * ```
 */
export async function fsyncFile(path: string): Promise<void> {
  let handle
  try {
    handle = await open(path, 'r')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/**
 * Group commit for the embedded database (decision 1210). The connection runs WAL with `synchronous = NORMAL`, so a
 * `COMMIT` writes its frames to the write-ahead log (safe from a crash of the process at once) without waiting for
 * the disk on the JavaScript thread; before a write is acknowledged, its caller awaits {@link WalSync.durable},
 * which fsyncs the log on libuv's threads. Commits made while an fsync runs share the next one, so N concurrent
 * requests pay one or two fsyncs, not N, and the event loop keeps serving meanwhile.
 *
 * `durable()` resolves once everything committed before the call is on the disk; it rejects with the fsync's error.
 *
 * @example
 * ```ts
 * const walSync = new WalSync(`${databaseFile}-wal`)
 * db.exec('COMMIT')
 * await walSync.durable() // now the commit survives a power cut
 * ```
 */
export class WalSync {
  private inFlight: Promise<void> | undefined
  private queued: Promise<void> | undefined
  private syncs = 0

  /**
   * @param walPath the write-ahead log (`<database>-wal`)
   * @param sync how to flush it (default {@link fsyncFile}; tests pass a spy)
   */
  constructor(
    private readonly walPath: string,
    private readonly sync: (path: string) => Promise<void> = fsyncFile,
  ) {}

  /**
   * How many fsyncs ran so far (what group commit saves shows here: fewer than the commits).
   *
   * @example
   * ```ts
   * walSync.fsyncCount // 12 after 40 concurrent commits
   * ```
   */
  get fsyncCount(): number {
    return this.syncs
  }

  /**
   * Resolves once every commit made before this call is on the disk.
   *
   * @example
   * ```ts
   * db.exec('COMMIT')
   * await walSync.durable()
   * ```
   */
  durable(): Promise<void> {
    if (!this.inFlight) return this.start()
    // The fsync running now may have started before this caller's commit: wait for the next one, which every
    // caller arriving meanwhile shares.
    this.queued ??= this.inFlight
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined
        return this.start()
      })
    return this.queued
  }

  private start(): Promise<void> {
    this.syncs += 1
    const run: Promise<void> = this.sync(this.walPath).finally(() => {
      if (this.inFlight === run) this.inFlight = undefined
    })
    this.inFlight = run
    return run
  }
}
