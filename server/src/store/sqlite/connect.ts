import Database from 'better-sqlite3'
import type { Database as SqliteDatabase } from 'better-sqlite3'
import * as sqliteVec from 'sqlite-vec'
import { registerInt8Copy } from './search/int8-copy.js'

/** A better-sqlite3 connection. */
export type Sqlite = SqliteDatabase

/** Options of {@link openDatabase}. */
export interface OpenDatabaseOptions {
  /**
   * The caller makes commits durable itself, off the JavaScript thread, before acknowledging them (a `GroupFsync`,
   * decision 1210): the connection then runs `synchronous = NORMAL` (in WAL mode a commit is written to the log but
   * not fsynced by SQLite). Default `false`: `synchronous = FULL`, SQLite fsyncs the log inside every `COMMIT`.
   *
   * @example
   * ```ts
   * const db = openDatabase(file, { groupCommit: true })
   * const walSync = new GroupFsync(`${file}-wal`)
   * ```
   */
  groupCommit?: boolean
}

/**
 * Opens the embedded database with the settings botshelf relies on: WAL, foreign keys,
 * a busy timeout, `synchronous = FULL` so a committed row survives a power cut (or `NORMAL` when the caller makes
 * commits durable itself: `groupCommit`), the sqlite-vec functions (`vec_distance_cosine`) the search index ranks
 * vectors with, and `botshelf_int8`, which its triggers write the scan's int8 copies with (decision 1457).
 * Pass `':memory:'` for a throwaway store (tests).
 *
 * @example
 * ```ts
 * const db = openDatabase('./.botshelf/botshelf.db')
 * ```
 */
export function openDatabase(filename: string, options: OpenDatabaseOptions = {}): Sqlite {
  const db = new Database(filename)
  if (filename !== ':memory:') db.pragma('journal_mode = WAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  db.pragma(options.groupCommit === true && filename !== ':memory:' ? 'synchronous = NORMAL' : 'synchronous = FULL')
  sqliteVec.load(db)
  registerInt8Copy(db)
  return db
}
