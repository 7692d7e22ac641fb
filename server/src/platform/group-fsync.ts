import { open } from 'node:fs/promises'

/**
 * An open file or folder as {@link GroupFsync} holds it between fsyncs.
 *
 * @example
 * ```ts
 * const handle: FsyncHandle = await open('./.botshelf/botshelf.db-wal', 'r')
 * await handle.sync()
 * await handle.close()
 * ```
 */
export interface FsyncHandle {
  sync(): Promise<void>
  /** Optional: flushes the data and the metadata needed to read it back (`fdatasync`); see `HeldFsyncOptions.datasync`. */
  datasync?(): Promise<void>
  close(): Promise<void>
}

/** Options of {@link GroupFsync} when it holds the file open between fsyncs. */
export interface HeldFsyncOptions {
  /**
   * Opens the file or folder to fsync (default: node's `open(path, 'r')`, a missing file giving `undefined`:
   * nothing to flush). Tests pass a spy.
   *
   * @example
   * ```ts
   * new GroupFsync(folder, { open: (path) => open(path, 'r') })
   * ```
   */
  open?: (path: string) => Promise<FsyncHandle | undefined>
  /**
   * Flush with `fdatasync` instead of `fsync` when the handle has it: the data and the metadata needed to read it
   * back (the size of a file that grew), not its times. For a file written in place, such as SQLite's write-ahead
   * log once it wraps: SQLite's own syncs are fdatasync when it is built with it (decision 1232). Not for a
   * folder, whose renames must reach the disk.
   *
   * @example
   * ```ts
   * new GroupFsync(`${databaseFile}-wal`, { datasync: true })
   * ```
   */
  datasync?: boolean
}

async function openIfPresent(path: string): Promise<FsyncHandle | undefined> {
  try {
    return await open(path, 'r')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

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
 * Unless given a `sync` function, it opens the file once for a run of back-to-back fsyncs and closes it when no
 * caller waits any more (decision 1215): under load, one fsync per group instead of open, fsync and close.
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
  private readonly sync: (path: string) => Promise<void>
  private readonly openHandle: ((path: string) => Promise<FsyncHandle | undefined>) | undefined
  private held: Promise<FsyncHandle | undefined> | undefined
  private readonly datasync: boolean

  /**
   * @param path the file or folder to fsync (e.g. `<database>-wal`)
   * @param how a function that flushes it each time (open, fsync, close: e.g. {@link fsyncFile}; tests pass a spy),
   *   or how to open it to hold it between fsyncs (default: held, opened with node's `open(path, 'r')`)
   */
  constructor(
    private readonly path: string,
    how: ((path: string) => Promise<void>) | HeldFsyncOptions = {},
  ) {
    if (typeof how === 'function') {
      this.sync = how
      this.openHandle = undefined
      this.datasync = false
    } else {
      this.openHandle = how.open ?? openIfPresent
      this.datasync = how.datasync ?? false
      this.sync = () => this.syncHeld()
    }
  }

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
      // Nobody waits for a next fsync: let the file go until the next writer.
      if (!this.queued) this.release()
    })
    this.inFlight = run
    return run
  }

  /** One fsync through the held handle, opening it first when needed; a failed fsync drops the handle. */
  private async syncHeld(): Promise<void> {
    const opening = (this.held ??= this.openHandle!(this.path))
    let handle: FsyncHandle | undefined
    try {
      handle = await opening
    } catch (error) {
      if (this.held === opening) this.held = undefined
      throw error
    }
    // Missing (a log not written yet): nothing to flush, and the next call looks again.
    if (!handle) {
      if (this.held === opening) this.held = undefined
      return
    }
    try {
      if (this.datasync && handle.datasync) await handle.datasync()
      else await handle.sync()
    } catch (error) {
      this.release()
      throw error
    }
  }

  private release(): void {
    const held = this.held
    if (!held) return
    this.held = undefined
    void held.then((handle) => handle?.close()).catch(() => undefined)
  }
}
