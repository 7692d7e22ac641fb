import type postgres from 'postgres'
import type { PgMigration } from './pg-types.js'

/**
 * Applies the migrations that have not run yet, in order, recording each in `botshelf_migrations`. Safe when
 * several servers start at once: everything runs in one transaction that first takes an advisory lock named
 * after the schema, so the others wait, then find the work done. A failing migration rolls the whole run back.
 * Waiting for the lock and long migrations are not cut by the statement timeout.
 *
 * @example
 * ```ts
 * const applied = await runPgMigrations(sql, [...postgresAuthMigrations, ...postgresFilesMigrations], 'public')
 * ```
 */
export async function runPgMigrations(sql: postgres.Sql, migrations: ReadonlyArray<PgMigration>, schema: string): Promise<string[]> {
  const ids = new Set<string>()
  for (const migration of migrations) {
    if (ids.has(migration.id)) throw new Error(`Two PostgreSQL migrations share the id "${migration.id}"`)
    ids.add(migration.id)
  }
  return sql.begin(async (tx) => {
    await tx`SET LOCAL statement_timeout = 0`
    await tx`SELECT pg_advisory_xact_lock(hashtext(${`botshelf.migrate:${schema}`}))`
    await tx`CREATE SCHEMA IF NOT EXISTS ${tx(schema)}`
    await tx`CREATE TABLE IF NOT EXISTS botshelf_migrations (id text COLLATE "C" PRIMARY KEY, applied_at text NOT NULL)`
    const done = new Set((await tx<Array<{ id: string }>>`SELECT id FROM botshelf_migrations`).map((row) => row.id))
    const applied: string[] = []
    for (const migration of migrations) {
      if (done.has(migration.id)) continue
      await migration.up(tx)
      await tx`INSERT INTO botshelf_migrations (id, applied_at) VALUES (${migration.id}, ${new Date().toISOString()})`
      applied.push(migration.id)
    }
    return applied
  })
}
