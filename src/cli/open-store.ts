import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { authMigrations } from '../store/sqlite/auth-migrations.js'
import { AuthStore } from '../store/sqlite/auth-store.js'
import { runMigrations } from '../store/sqlite/migrations.js'
import { openDatabase, type Sqlite } from '../store/sqlite/open-database.js'
import { UsageError } from './io.js'

/**
 * Opens the bots and tokens of an existing data folder (without taking the server's lock: SQLite serializes
 * the writes, so the commands work while the server runs). A missing folder is a `UsageError`.
 *
 * @example
 * ```ts
 * const { store, db } = openAuthStore('./.botshelf')
 * try { store.listBots() } finally { db.close() }
 * ```
 */
export function openAuthStore(dataDir: string): { store: AuthStore; db: Sqlite } {
  const file = join(resolve(dataDir), 'botshelf.db')
  if (!existsSync(file)) {
    throw new UsageError(`No botshelf data folder at ${resolve(dataDir)} (missing botshelf.db). Start "botshelf serve --data ${dataDir}" once first, or pass --data.`)
  }
  const db = openDatabase(file)
  runMigrations(db, authMigrations)
  return { store: new AuthStore(db), db }
}
