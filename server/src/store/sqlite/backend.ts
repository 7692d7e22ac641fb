import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLocalFolderBlobStore } from '../../blobs/index.js'
import { createPrivateFile, dataFolder, ensureDataFolder, lockDataDir, type DataLock } from '../../platform/index.js'
import type { Backend, BackendPorts } from '../backend.js'
import { systemClock, type Clock } from '../clock.js'
import { asyncPort } from './guarded-port.js'
import { SqliteDatasetStore } from './dataset/index.js'
import { authMigrations, AuthStore } from './auth/index.js'
import { filesMigrations, FilesRepository, KnowledgeBasesRepository } from './files/index.js'
import { jobsMigrations, SqliteJobQueue } from './jobs/index.js'
import { computedMigrations, SqliteComputedCells } from './computed/index.js'
import { runMigrations } from './migrations.js'
import { searchMigrations, SqliteSearchStore, SqliteVectorLists } from './search/index.js'
import type { VectorListsSettings } from '../search/vector-lists.js'
import { openDatabase, type Sqlite } from './connect.js'
import { portMethods, readOnlyPortMethods, writeBehindPortMethods } from '../port-methods.js'
import { SqliteTablesStore, tablesMigrations } from './tables/index.js'
import { TransactionGate } from './transaction-guard.js'
import { WalCheckpointer } from './wal-checkpointer.js'
import { SqliteWebhooksStore, webhooksMigrations } from './webhooks/index.js'
import { GroupFsync } from '../../platform/index.js'

/** Options of {@link openSqliteBackend} that both forms share. */
export interface SqliteBackendCommonOptions {
  /**
   * The approximate vector stage's knobs (decision 0821; defaults in `VECTOR_LISTS_DEFAULTS`): from how many vectors
   * of one bot and embedder lists are trained, and how many lists a query probes. Tests lower `minVectors`.
   *
   * @example
   * ```ts
   * await openSqliteBackend({ memory: true, vectorLists: { minVectors: 2_000 } })
   * ```
   */
  vectorLists?: Partial<VectorListsSettings>
}

/** Options of {@link openSqliteBackend}: a data folder, or an in-memory database. */
export type SqliteBackendOptions = SqliteBackendCommonOptions &
  ({
      /**
       * The data folder: `botshelf.db` and `content/`, created when missing, locked against a second server.
       *
       * @example
       * ```ts
       * await openSqliteBackend({ dataDir: './.botshelf' })
       * ```
       */
      dataDir: string
      /**
       * Take the folder's lock (default true). The CLI's token commands pass false: they work beside a running server.
       *
       * @example
       * ```ts
       * await openSqliteBackend({ dataDir: './.botshelf', lock: false })
       * ```
       */
      lock?: boolean
      /**
       * The clock every port stamps times with (default: the wall clock).
       *
       * @example
       * ```ts
       * await openSqliteBackend({ dataDir: dir, now: () => new Date('2026-01-01T00:00:00Z') })
       * ```
       */
      now?: Clock
      /**
       * How long a store call may wait for an open transaction before it is refused, in milliseconds (default
       * 5000): a call made inside `backend.transaction(fn)` through the backend itself would otherwise wait for
       * its own transaction forever.
       *
       * @example
       * ```ts
       * await openSqliteBackend({ dataDir: './.botshelf', transactionWaitMs: 1000 })
       * ```
       */
      transactionWaitMs?: number
      /**
       * How the write-ahead log is flushed before a write is acknowledged (default: `fdatasync` on libuv's threads
       * through a handle held while commits follow each other; decisions 1210, 1215, 1232). Tests pass a spy to see that an answer waits for it.
       *
       * @example
       * ```ts
       * const synced: string[] = []
       * await openSqliteBackend({ dataDir, fsyncFile: async (path) => { synced.push(path); await fsyncFile(path) } })
       * ```
       */
      fsyncFile?: (path: string) => Promise<void>
      /**
       * Absent or false with a data folder (the other form of these options is `{ memory: true }`).
       *
       * @example
       * ```ts
       * await openSqliteBackend({ dataDir: './.botshelf', memory: false })
       * ```
       */
      memory?: false
    }
  | {
      /**
       * In-memory SQLite and a temporary content folder removed by `close()`: for tests and throwaway servers.
       *
       * @example
       * ```ts
       * await openSqliteBackend({ memory: true })
       * ```
       */
      memory: true
      /**
       * The clock every port stamps times with.
       *
       * @example
       * ```ts
       * await openSqliteBackend({ memory: true, now: fakeClock })
       * ```
       */
      now?: Clock
      /**
       * How long a store call may wait for an open transaction before it is refused, in milliseconds (default
       * 5000): a call made inside `backend.transaction(fn)` through the backend itself would otherwise wait for
       * its own transaction forever.
       *
       * @example
       * ```ts
       * await openSqliteBackend({ memory: true, transactionWaitMs: 1000 })
       * ```
       */
      transactionWaitMs?: number
      /**
       * No data folder in memory.
       *
       * @example
       * ```ts
       * await openSqliteBackend({ memory: true, dataDir: undefined })
       * ```
       */
      dataDir?: undefined
      /**
       * Nothing to lock in memory.
       *
       * @example
       * ```ts
       * await openSqliteBackend({ memory: true, lock: undefined })
       * ```
       */
      lock?: undefined
    })

/** The embedded backend: the backend object plus the SQLite handle, for tests and the SQLite-only tools. */
export interface SqliteBackend extends Backend {
  /** The better-sqlite3 connection (WAL). Only SQLite-specific code may use it. */
  readonly db: Sqlite
  /** The data folder, or `null` in memory. */
  readonly dataDir: string | null
  /** Where content lives: `<dataDir>/content`, or a temporary folder removed by `close()`. */
  readonly contentDir: string
  /** The search index's vector lists (decision 0821): `idle()` waits for trainings, `rebuildAll()` retrains. */
  readonly vectorLists: SqliteVectorLists
}


/**
 * The migrations of every port of the SQLite backend, in order (each adapter owns its own).
 *
 * @example
 * ```ts
 * runMigrations(sqlite, sqliteMigrations)
 * ```
 */
export const sqliteMigrations = [...authMigrations, ...filesMigrations, ...tablesMigrations, ...jobsMigrations, ...searchMigrations, ...computedMigrations, ...webhooksMigrations]

/**
 * Opens the embedded backend: SQLite (WAL, `synchronous = FULL`) and a content folder, migrated and ready.
 * better-sqlite3 is synchronous, so each port call is atomic by itself; `transaction(fn)` holds a SQLite write
 * transaction across `fn`'s awaits while every other call waits (see `TransactionGate`).
 *
 * @example
 * ```ts
 * const backend = await openSqliteBackend({ dataDir: './.botshelf' })
 * const bots = await backend.auth.listBots()
 * await backend.close()
 * ```
 */
export async function openSqliteBackend(options: SqliteBackendOptions): Promise<SqliteBackend> {
  const now = options.now ?? systemClock
  let lock: DataLock | undefined
  let contentDir: string
  let databaseFile: string
  let dataDir: string | null = null
  if (options.memory) {
    contentDir = mkdtempSync(join(tmpdir(), 'botshelf-content-'))
    databaseFile = ':memory:'
  } else {
    const folder = dataFolder(options.dataDir)
    ensureDataFolder(folder)
    if (options.lock !== false) lock = lockDataDir(folder.root)
    // Made 0600 before SQLite opens it: SQLite gives the -wal and -shm files the database file's mode (decision 1461).
    createPrivateFile(folder.databaseFile)
    contentDir = folder.contentDir
    databaseFile = folder.databaseFile
    dataDir = folder.root
  }
  let db: Sqlite | undefined
  const gate = new TransactionGate(options.transactionWaitMs)
  // File-backed: commits are made durable off the JavaScript thread, several sharing one fsync (decision 1210).
  // The log is flushed with fdatasync, as SQLite flushes it itself (decision 1232).
  const walSync = databaseFile === ':memory:' ? undefined : new GroupFsync(`${databaseFile}-wal`, (options.memory ? undefined : options.fsyncFile) ?? { datasync: true })
  const durable = walSync ? () => walSync.durable() : () => Promise.resolve()
  let checkpointer: WalCheckpointer | undefined
  const written = () => checkpointer?.afterWrite()
  const idle = () => gate.idle()
  let rootPorts: BackendPorts
  let txPorts: BackendPorts
  let vectorLists: SqliteVectorLists
  try {
    db = openDatabase(databaseFile, { groupCommit: walSync !== undefined })
    // File-backed: the log's checkpoints run in a thread of their own, not inside a request's commit (decision 1483).
    if (walSync) {
      checkpointer = new WalCheckpointer(db, databaseFile, {
        onFallback: (error) => process.emitWarning(`botshelf: SQLite checkpoints run on the main thread again: ${String(error)}`),
      })
    }
    // Before the stores are built: they may prepare statements against their tables.
    runMigrations(db, sqliteMigrations)
    const sqlite: Sqlite = db
    const auth = new AuthStore(sqlite, now)
    const files = new FilesRepository(sqlite, now)
    const knowledgeBases = new KnowledgeBasesRepository(sqlite, now)
    const tables = new SqliteTablesStore(sqlite, { now })
    const jobs = new SqliteJobQueue(sqlite, now)
    const computed = new SqliteComputedCells(sqlite, now)
    // Its trainings commit outside the ports: they tell the checkpointer themselves.
    vectorLists = new SqliteVectorLists(sqlite, options.vectorLists, idle, written)
    const search = new SqliteSearchStore(sqlite, now, vectorLists)
    const dataset = new SqliteDatasetStore(sqlite)
    const webhooks = new SqliteWebhooksStore(sqlite, now)
    // Root ports answer a write once it is durable; inside a transaction, the transaction's end waits instead.
    const root = walSync !== undefined
    const totalChanges = sqlite.prepare('SELECT total_changes()').pluck()
    const changes = (): number => totalChanges.get() as number
    const durability = <Name extends string>(readOnly: ReadonlyArray<Name>, writeBehind: ReadonlyArray<Name> = []) => (root ? { readOnly, writeBehind, durable, changes, written } : undefined)
    rootPorts = {
      auth: asyncPort(auth, portMethods.auth, idle, durability(readOnlyPortMethods.auth)),
      files: asyncPort(files, portMethods.files, idle, durability(readOnlyPortMethods.files)),
      knowledgeBases: asyncPort(knowledgeBases, portMethods.knowledgeBases, idle, durability(readOnlyPortMethods.knowledgeBases)),
      tables: asyncPort(tables, portMethods.tables, idle, durability(readOnlyPortMethods.tables, writeBehindPortMethods.tables)),
      jobs: asyncPort(jobs, portMethods.jobs, idle, durability(readOnlyPortMethods.jobs)),
      computed: asyncPort(computed, portMethods.computed, idle, durability(readOnlyPortMethods.computed)),
      search: asyncPort(search, portMethods.search, idle, durability(readOnlyPortMethods.search)),
      dataset: asyncPort(dataset, portMethods.dataset, idle, durability(readOnlyPortMethods.dataset)),
      webhooks: asyncPort(webhooks, portMethods.webhooks, idle, durability(readOnlyPortMethods.webhooks)),
    }
    txPorts = {
      auth: asyncPort(auth, portMethods.auth),
      files: asyncPort(files, portMethods.files),
      knowledgeBases: asyncPort(knowledgeBases, portMethods.knowledgeBases),
      tables: asyncPort(tables, portMethods.tables),
      jobs: asyncPort(jobs, portMethods.jobs),
      computed: asyncPort(computed, portMethods.computed),
      search: asyncPort(search, portMethods.search),
      dataset: asyncPort(dataset, portMethods.dataset),
      webhooks: asyncPort(webhooks, portMethods.webhooks),
    }
  } catch (error) {
    // Nothing half-open is left behind: not the database, not the folder lock, not the temporary content folder.
    await checkpointer?.close()
    db?.close()
    lock?.release()
    if (options.memory) rmSync(contentDir, { recursive: true, force: true })
    throw error
  }

  const sqlite: Sqlite = db
  let closed = false
  // The process that owns the folder trains lists a database upgraded from the exact-only schema lacks (a tool
  // opening it beside a running server does not).
  if (options.lock !== false) vectorLists.considerAll()

  const backend: SqliteBackend = {
    kind: options.memory ? 'sqlite-memory' : 'sqlite',
    db: sqlite,
    dataDir,
    contentDir,
    now,
    vectorLists,
    blobs: createLocalFolderBlobStore({ root: join(contentDir, 'files') }),
    ...rootPorts,
    transaction(fn) {
      return gate.exclusive(async () => {
        sqlite.exec('BEGIN IMMEDIATE')
        try {
          const result = await fn(txPorts)
          sqlite.exec('COMMIT')
          written()
          // The gate opens for the next transaction now; this caller is answered once the commit is on the disk.
          return { result }
        } catch (error) {
          if (sqlite.inTransaction) sqlite.exec('ROLLBACK')
          throw error
        }
      }).then(async ({ result }) => {
        await durable()
        return result
      })
    },
    // The root ports as they are: a read on SQLite costs no more for being asked to agree (decision 1479).
    readSnapshot(fn) {
      return fn(rootPorts)
    },
    async ping() {
      if (sqlite.prepare('SELECT 1').pluck().get() !== 1) throw new Error('the database did not answer')
    },
    async migrate() {
      const wait = gate.idle()
      if (wait) await wait
      runMigrations(sqlite, sqliteMigrations)
      written()
      await durable()
    },
    async close() {
      if (closed) return
      // Throws inside a transaction's fn (closing would wait for itself): nothing is marked closed then, so a
      // later close() still closes.
      const wait = gate.idle()
      if (wait) await wait
      if (closed) return
      closed = true
      await vectorLists.stop()
      // Its connection closes first: the server's, closing last, checkpoints the log and removes it.
      await checkpointer?.close()
      sqlite.close()
      lock?.release()
      if (options.memory) rmSync(contentDir, { recursive: true, force: true })
    },
  }
  return backend
}
