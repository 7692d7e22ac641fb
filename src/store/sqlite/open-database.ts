import Database from 'better-sqlite3'
import type { Database as SqliteDatabase } from 'better-sqlite3'
import * as sqliteVec from 'sqlite-vec'

/** A better-sqlite3 connection. */
export type Sqlite = SqliteDatabase

/**
 * Opens the embedded database with the settings botshelf relies on: WAL, foreign keys,
 * a busy timeout, `synchronous = FULL` so a committed row survives a power cut, and the sqlite-vec functions
 * (`vec_distance_cosine`) the search index ranks vectors with.
 * Pass `':memory:'` for a throwaway store (tests).
 *
 * @example
 * ```ts
 * const db = openDatabase('./.botshelf/botshelf.db')
 * ```
 */
export function openDatabase(filename: string): Sqlite {
  const db = new Database(filename)
  if (filename !== ':memory:') db.pragma('journal_mode = WAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  db.pragma('synchronous = FULL')
  sqliteVec.load(db)
  return db
}
