import type { AuthPort, Backend } from '../store/index.js'
import { openStorageForManagement, resolveStorage } from './storage-options.js'

/** The storage flags of a management command, as parsed (`--data`, `--database`). */
export interface StorageFlags {
  data?: string
  database?: string
}

/**
 * Opens the backend the storage flags (and `BOTSHELF_DATABASE_URL`) name for the management commands, without
 * the server's lock (they work beside a running server). Refuses storage no server has prepared.
 *
 * @example
 * ```ts
 * const { store, backend } = await openAuthStore({ database: 'postgres://db/botshelf' }) // or { data: './.botshelf' }
 * try { await store.listBots() } finally { await backend.close() }
 * ```
 */
export async function openAuthStore(flags: StorageFlags | string): Promise<{ store: AuthPort; backend: Backend }> {
  // A string is a data folder (the form of earlier versions).
  const backend = await openStorageForManagement(resolveStorage(typeof flags === 'string' ? { data: flags } : flags))
  return { store: backend.auth, backend }
}
