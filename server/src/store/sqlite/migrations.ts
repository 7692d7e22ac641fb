import type { Sqlite } from './connect.js'

/**
 * One schema change. `id` is unique and never reused; migrations run once, in array order,
 * each in its own transaction. Each store module (files, tokens, tables, ...) exports its list.
 */
export interface Migration {
  id: string
  up: (db: Sqlite) => void
}

/**
 * Applies the migrations that have not run yet on this database, recording each in `_migrations`.
 *
 * @example
 * ```ts
 * runMigrations(db, [...filesMigrations, ...tablesMigrations])
 * ```
 */
export function runMigrations(db: Sqlite, migrations: ReadonlyArray<Migration>): void {
  db.exec('CREATE TABLE IF NOT EXISTS _migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)')
  const done = new Set(db.prepare('SELECT id FROM _migrations').pluck().all() as string[])
  const record = db.prepare('INSERT INTO _migrations (id, applied_at) VALUES (?, ?)')
  for (const migration of migrations) {
    if (done.has(migration.id)) continue
    db.transaction(() => {
      migration.up(db)
      record.run(migration.id, new Date().toISOString())
    })()
  }
}
