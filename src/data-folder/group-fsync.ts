import { open } from 'node:fs/promises'

/**
 * Flushes one file or folder to the disk (`fsync`); a missing one has nothing to flush.
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
 * Group fsync of one file or folder (decision 1210): `durable()` resolves once an fsync that *started after* the
 * call has finished, and every caller arriving while an fsync runs shares the next one, so N concurrent writers pay
 * one or two fsyncs, not N, all on libuv's threads. Used for the embedded database's write-ahead log (the connection
 * runs `synchronous = NORMAL`; a write is answered after `durable()`) and for the content folder after a blob's
 * rename. It rejects with the fsync's error.
 *
 * @example
 * ```ts
 * const walSync = new GroupFsync(`${databaseFile}-wal`)
 * db.exec('COMMIT')
 * await walSync.durable() // now the commit survives a power cut
 * ```
 */
export class GroupFsync {
  private inFlight: Promise<void> | undefined
  private queued: Promise<void> | undefined
  private syncs = 0

  /**
   * @param path the file or folder to fsync (e.g. `<database>-wal`)
   * @param sync how to flush it (default {@link fsyncFile}; tests pass a spy)
   */
  constructor(
    private readonly path: string,
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
    const run: Promise<void> = this.sync(this.path).finally(() => {
      if (this.inFlight === run) this.inFlight = undefined
    })
    this.inFlight = run
    return run
  }
}
