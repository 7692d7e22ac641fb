import type { BlobStore } from '../blobs/index.js'
import type { Backend } from './backend.js'
import type { Clock } from './clock.js'
import type { PostgresBackend, PostgresBackendOptions } from './postgres/backend.js'
import { openSqliteBackend } from './sqlite/backend.js'
import { backupSqliteDatabase } from './sqlite/online-backup.js'
import { dataFolder } from '../platform/index.js'

/**
 * Which backend to open: the embedded SQLite one in a data folder or in memory, or PostgreSQL (`databaseUrl`)
 * with file content in `blobs`, or else in the data folder's `content/`.
 */
export type BackendTarget =
  | { dataDir: string; now?: Clock; lock?: boolean }
  | { memory: true; now?: Clock }
  | {
      databaseUrl: string
      /** Where file content goes; without it, `<dataDir>/content`. */
      blobs?: BlobStore
      dataDir?: string
      now?: Clock
      poolSize?: number
      statementTimeoutMs?: number
      schema?: string
      /** Apply pending migrations while opening (default true). */
      migrate?: boolean
    }

/**
 * Opens the backend a target names: the composition root that knows every adapter, so the service itself never
 * imports one (adding a backend = an adapter folder plus a case here).
 *
 * @example
 * ```ts
 * const embedded = await openBackend({ dataDir: './.botshelf' })
 * const shared = await openBackend({ databaseUrl: 'postgres://botshelf@db:5432/botshelf', dataDir: './.botshelf' })
 * ```
 */
export async function openBackend(target: BackendTarget): Promise<Backend & { readonly dataDir: string | null }> {
  if ('databaseUrl' in target) {
    const { databaseUrl, ...rest } = target
    return openPostgresBackend({ url: databaseUrl, ...withoutUndefined(rest) })
  }
  if ('memory' in target) return openSqliteBackend({ memory: true, ...(target.now ? { now: target.now } : {}) })
  return openSqliteBackend({ dataDir: target.dataDir, ...(target.now ? { now: target.now } : {}), ...(target.lock !== undefined ? { lock: target.lock } : {}) })
}

/**
 * A consistent copy of a live embedded data folder's metadata, taken while its server runs: SQLite's online backup
 * of `botshelf.db` into `workDir`, opened there as a backend of its own (unlocked, never served). The content stays
 * in the live folder; read it with the folder's blob store. Close the returned backend, then delete `workDir`.
 *
 * @example
 * ```ts
 * const snapshot = await openSqliteSnapshot('./.botshelf', './backup/.work-1')
 * try { await snapshot.transaction((tx) => tx.auth.listBots()) } finally { await snapshot.close() }
 * ```
 */
export async function openSqliteSnapshot(dataDir: string, workDir: string): Promise<Backend> {
  const live = dataFolder(dataDir)
  await backupSqliteDatabase(live.databaseFile, dataFolder(workDir).databaseFile)
  return openSqliteBackend({ dataDir: workDir, lock: false })
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T
}

/**
 * Opens a PostgreSQL backend. The adapter and its driver (the `postgres` package) load here, on first use, so a
 * service on SQLite never loads them (boundaries.test.ts checks that no static import brings them back).
 *
 * @example
 * ```ts
 * const backend = await openPostgresBackend({ url: 'postgres://postgres@127.0.0.1:5432/botshelf', dataDir: './.botshelf' })
 * ```
 */
export async function openPostgresBackend(options: PostgresBackendOptions): Promise<PostgresBackend> {
  const adapter = await import('./postgres/backend.js')
  return adapter.openPostgresBackend(options)
}

// The adapters' own openers, for embedders who open a backend themselves (`createApp({ backend })`). Types only
// from the PostgreSQL adapter: a value re-export would load it eagerly.
export { openSqliteBackend, type SqliteBackend, type SqliteBackendOptions } from './sqlite/backend.js'
export type { PostgresBackend, PostgresBackendOptions, PostgresTablesAdapter } from './postgres/backend.js'
