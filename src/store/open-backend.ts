import type { Backend } from './backend.js'
import type { Clock } from './clock.js'
import { openSqliteBackend } from './sqlite/sqlite-backend.js'

/** Which backend to open: the embedded SQLite one in a data folder, or in memory. */
export type BackendTarget = { dataDir: string; now?: Clock; lock?: boolean } | { memory: true; now?: Clock }

/**
 * Opens the backend a target names: the composition root that knows every adapter, so the service itself never
 * imports one (adding a backend = an adapter folder plus a case here).
 *
 * @example
 * ```ts
 * const backend = await openBackend({ dataDir: './.botshelf' })
 * ```
 */
export async function openBackend(target: BackendTarget): Promise<Backend & { readonly dataDir: string | null }> {
  if ('memory' in target) return openSqliteBackend({ memory: true, ...(target.now ? { now: target.now } : {}) })
  return openSqliteBackend({ dataDir: target.dataDir, ...(target.now ? { now: target.now } : {}), ...(target.lock !== undefined ? { lock: target.lock } : {}) })
}

// The adapters' own openers, for embedders who open a backend themselves (`createApp({ backend })`).
export { openSqliteBackend, type SqliteBackend, type SqliteBackendOptions } from './sqlite/sqlite-backend.js'
