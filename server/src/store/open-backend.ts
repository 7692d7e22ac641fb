import type { BlobStore } from '../blobs/index.js'
import type { Backend } from './backend.js'
import type { Clock } from './clock.js'
import type { PostgresBackend, PostgresBackendOptions } from './postgres/backend.js'
import { openSqliteBackend } from './sqlite/backend.js'

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
