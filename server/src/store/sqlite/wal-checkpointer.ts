import { closeSync, openSync, readSync } from 'node:fs'
import { createRequire } from 'node:module'
import { endianness } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { Sqlite } from './connect.js'

/** SQLite's own threshold for an automatic checkpoint: a log of 1,000 pages (4 MB at the default page size). */
const DEFAULT_THRESHOLD_FRAMES = 1000

/** `mxFrame` of the wal-index header: the frames in the log, a native-endian u32 at byte 16 of the `-shm` file. */
const MX_FRAME_OFFSET = 16

/** What a checkpoint in the thread reported: SQLite's `wal_checkpoint` row, or why it failed. */
export interface CheckpointOutcome {
  /** 1 when another checkpoint (another process) held the lock; the next write asks again. */
  busy: number
  /** Frames in the log when it ran. */
  log: number
  /** Frames copied into the database file (all of them: the next commit starts the log over). */
  checkpointed: number
}

/** Options of {@link WalCheckpointer}. */
export interface WalCheckpointerOptions {
  /**
   * Frames in the log past which a checkpoint runs. Default 1,000, SQLite's own `wal_autocheckpoint`.
   *
   * @example
   * ```ts
   * new WalCheckpointer(db, file, { thresholdFrames: 50 }) // tests: a few writes reach it
   * ```
   */
  thresholdFrames?: number
  /**
   * Called after each checkpoint the thread ran (tests and benches count them).
   *
   * @example
   * ```ts
   * new WalCheckpointer(db, file, { onCheckpoint: (outcome) => console.log(outcome.checkpointed) })
   * ```
   */
  onCheckpoint?: (outcome: CheckpointOutcome) => void
  /**
   * Called once if the thread cannot run (it failed to start, or a checkpoint threw): the connection then
   * checkpoints itself again, as SQLite does by default.
   *
   * @example
   * ```ts
   * new WalCheckpointer(db, file, { onFallback: (error) => logger.log('warn', 'checkpoints back on the main thread', { error: String(error) }) })
   * ```
   */
  onFallback?: (error: unknown) => void
}

// The thread's code: plain CommonJS (no TypeScript loader to start), one connection, one checkpoint per message.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const failure = (error) => ({ ok: false, message: String((error && error.message) || error) })
let db
try {
  db = new (require(workerData.driver))(workerData.file, { fileMustExist: true })
  // Checkpoints flush the log before copying it and the database after: NORMAL keeps both flushes.
  db.pragma('synchronous = NORMAL')
} catch (error) {
  parentPort.postMessage(failure(error))
}
parentPort.on('message', (message) => {
  if (message === 'close') { if (db) db.close(); parentPort.close(); return }
  if (!db) return
  try {
    const row = db.pragma('wal_checkpoint(PASSIVE)')[0]
    parentPort.postMessage({ ok: true, busy: row.busy, log: row.log, checkpointed: row.checkpointed })
  } catch (error) {
    parentPort.postMessage(failure(error))
  }
})
`

/**
 * Moves the write-ahead log's checkpoints off the JavaScript thread (decision 1483). By default SQLite checkpoints
 * inside the `COMMIT` that takes the log past 1,000 pages: it copies the log into the database file and flushes both,
 * holding the event loop for that time, and once a reader keeps the log from starting over, at every commit after.
 * With a checkpointer the connection never checkpoints itself (`wal_autocheckpoint = 0`); after each write the log's
 * length is read from the wal-index header (48 bytes of the `-shm` file, no lock), and past the threshold a worker
 * thread with its own connection runs `wal_checkpoint(PASSIVE)`, which waits for no reader or writer. The thread
 * starts on the first checkpoint (a server that never writes 4 MB never pays for it). What a checkpoint does and
 * when it is safe are SQLite's: a crash during one loses nothing committed.
 *
 * @example
 * ```ts
 * const db = openDatabase(file, { groupCommit: true })
 * const checkpointer = new WalCheckpointer(db, file)
 * db.exec('INSERT INTO t VALUES (1)')
 * checkpointer.afterWrite()
 * await checkpointer.close() // before db.close()
 * ```
 */
export class WalCheckpointer {
  private worker: Worker | undefined
  private running = false
  private stopped = false
  private shm: number | undefined
  private readonly header = Buffer.alloc(4)
  private readonly threshold: number

  constructor(
    private readonly db: Sqlite,
    private readonly file: string,
    private readonly options: WalCheckpointerOptions = {},
  ) {
    this.threshold = options.thresholdFrames ?? DEFAULT_THRESHOLD_FRAMES
    db.pragma('wal_autocheckpoint = 0')
  }

  /**
   * Call after a write committed: starts a checkpoint in the thread when the log is past the threshold and none runs.
   *
   * @example
   * ```ts
   * db.exec('INSERT INTO t VALUES (1)')
   * checkpointer.afterWrite()
   * ```
   */
  afterWrite(): void {
    if (this.stopped || this.running) return
    if (this.framesInLog() < this.threshold) return
    this.running = true
    try {
      this.thread().postMessage('checkpoint')
    } catch (error) {
      this.fallBack(error)
    }
  }

  /**
   * Stops the thread (after the checkpoint it runs, if any) and closes its connection. Call before closing the
   * database, so that the last connection to close is the server's (SQLite then checkpoints and removes the log).
   *
   * @example
   * ```ts
   * await checkpointer.close()
   * db.close()
   * ```
   */
  async close(): Promise<void> {
    this.stopped = true
    if (this.shm !== undefined) closeSync(this.shm)
    this.shm = undefined
    const worker = this.worker
    this.worker = undefined
    if (!worker) return
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
    // Awaited now: the thread holds the process until its connection is closed (unreferenced, it would not).
    worker.ref()
    worker.postMessage('close')
    await exited
  }

  /** The frames in the log, from the wal-index header; past the threshold when it cannot be read (a write asks once more). */
  private framesInLog(): number {
    try {
      this.shm ??= openSync(`${this.file}-shm`, 'r')
      if (readSync(this.shm, this.header, 0, 4, MX_FRAME_OFFSET) < 4) return this.threshold
      return endianness() === 'LE' ? this.header.readUInt32LE(0) : this.header.readUInt32BE(0)
    } catch {
      return this.threshold
    }
  }

  private thread(): Worker {
    if (this.worker) return this.worker
    const driver = createRequire(import.meta.url).resolve('better-sqlite3')
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { driver, file: this.file } })
    // Nothing waits on it: it never keeps the process alive.
    worker.unref()
    worker.on('message', (message: { ok: boolean; message?: string } & CheckpointOutcome) => {
      this.running = false
      if (!message.ok) return this.fallBack(new Error(message.message))
      this.options.onCheckpoint?.({ busy: message.busy, log: message.log, checkpointed: message.checkpointed })
    })
    worker.on('error', (error) => this.fallBack(error))
    worker.on('exit', () => {
      if (this.worker === worker) this.fallBack(new Error('the checkpoint thread exited'))
    })
    this.worker = worker
    return worker
  }

  /** The thread cannot checkpoint: the connection checkpoints itself again, as SQLite does by default. */
  private fallBack(error: unknown): void {
    if (this.stopped) return
    this.stopped = true
    this.running = false
    const worker = this.worker
    this.worker = undefined
    void worker?.terminate()
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${DEFAULT_THRESHOLD_FRAMES}`)
    this.options.onFallback?.(error)
  }
}
