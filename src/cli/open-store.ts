import { dataFolder, hasDatabase } from '../data-folder/index.js'
import { openBackend } from '../store/open-backend.js'
import type { AuthPort, Backend } from '../store/index.js'
import { UsageError } from './io.js'

/**
 * Opens the backend of an existing data folder for the management commands, without the server's lock (they
 * work beside a running server: SQLite in WAL mode lets both write). Refuses a folder no server has run in.
 *
 * @example
 * ```ts
 * const { store, backend } = await openAuthStore('./.botshelf')
 * try { await store.listBots() } finally { await backend.close() }
 * ```
 */
export async function openAuthStore(dataDir: string): Promise<{ store: AuthPort; backend: Backend }> {
  const folder = dataFolder(dataDir)
  if (!hasDatabase(folder)) {
    throw new UsageError(`No botshelf data folder at ${folder.root} (missing botshelf.db). Start "botshelf serve --data ${dataDir}" once first, or pass --data.`)
  }
  const backend = await openBackend({ dataDir: folder.root, lock: false })
  return { store: backend.auth, backend }
}
