import Database from 'better-sqlite3'

/**
 * Copies a live embedded database into `destination` with SQLite's online backup API, from a connection of its
 * own while a server keeps writing: the copy is the database as of one moment (a write by another connection
 * restarts the copy, and after the first small step the rest goes in one step, so it cannot restart for ever).
 * The source is opened read-only and never locked against the server for longer than a read.
 *
 * @example
 * ```ts
 * await backupSqliteDatabase('./.botshelf/botshelf.db', './backup/.work/botshelf.db')
 * ```
 */
export async function backupSqliteDatabase(source: string, destination: string): Promise<void> {
  const db = new Database(source, { readonly: true, fileMustExist: true })
  try {
    db.pragma('busy_timeout = 5000')
    // A huge step after the first: the rest of the pages are copied inside one read of the source.
    await db.backup(destination, { progress: () => 2_000_000_000 })
  } finally {
    db.close()
  }
}
