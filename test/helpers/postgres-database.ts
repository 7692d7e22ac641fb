import { inject } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../server/src/store/postgres/test-database.test-support.js'

// One database per worker in the postgres project: its global setup (postgres-global-setup.ts) names this run's
// databases and drops them all after the run; after each file, the setup file (postgres-setup.ts) only ends the
// connections the file's backends left open. Elsewhere (no run prefix given) it is one database per file, dropped
// after the file's last test. Either way, a file's backends each get an empty migrated schema of their own.
let database: Promise<TestDatabase> | undefined
// Schemas of that database a closed backend left migrated and empty again (`resetSchema`), for the next backend to
// take: migrating a fresh schema costs ~300 ms of PostgreSQL work, emptying a used one ~20 ms (the port contracts
// reset theirs the same way).
let freeSchemas: string[] = []

/**
 * The PostgreSQL database of the running test file, created on first use.
 *
 * @example
 * ```ts
 * const { url, freshSchema } = await testFileDatabase()
 * ```
 */
export function testFileDatabase(): Promise<TestDatabase> {
  database ??= createTestDatabase(runPrefix() === undefined ? {} : { prefix: runPrefix()! })
  return database
}

/** This run's database name prefix, when the postgres project's global setup gave one. */
function runPrefix(): string | undefined {
  return (inject as (key: string) => string | undefined)('postgresRunPrefix') || undefined
}

/** A schema of the test file's database for one backend: migrated and empty once `open` has run on it. */
export interface TestSchema {
  url: string
  schema: string
  /** True when a closed backend used it before (already migrated, emptied since). */
  reused: boolean
  /** Call once the backend on it is open: records the pristine catalog the first time. */
  opened(): Promise<void>
  /** Call after the backend on it is closed: empties it and offers it to the next backend, or leaves it. */
  release(): Promise<void>
}

/**
 * A schema for one test backend: an emptied one a closed backend left, or a fresh name (the backend migrates it).
 * Every backend still starts on an empty, fully migrated schema of its own; only the migration work is saved.
 *
 * @example
 * ```ts
 * const taken = await testFileSchema()
 * const backend = await openPostgresBackend({ url: taken.url, schema: taken.schema, dataDir })
 * await taken.opened()
 * // ... later
 * await backend.close()
 * await taken.release()
 * ```
 */
export async function testFileSchema(): Promise<TestSchema> {
  const made = testFileDatabase()
  const db = await made
  const reusedName = freeSchemas.pop()
  const schema = reusedName ?? db.freshSchema()
  return {
    url: db.url,
    schema,
    reused: reusedName !== undefined,
    async opened() {
      if (reusedName === undefined && database === made) await db.notePristine(schema)
    },
    async release() {
      // The file's database may be gone (dropped after its last test) or replaced: nothing to give back then.
      if (database !== made) return
      // Taken back only when, emptied, it holds exactly what a freshly migrated schema holds.
      if ((await db.resetSchema(schema)) && database === made) freeSchemas.push(schema)
    },
  }
}

/**
 * After a test file: ends the connections its backends left open on the worker's database (kept for the next
 * file) when the run keeps one per worker; otherwise drops the file's database.
 *
 * @example
 * ```ts
 * afterAll(endTestFileDatabase)
 * ```
 */
export async function endTestFileDatabase(): Promise<void> {
  if (runPrefix() === undefined) return dropTestFileDatabase()
  if (database) await (await database).endOtherConnections()
}

/**
 * Drops the database of the running test file, if it made one.
 *
 * @example
 * ```ts
 * afterAll(dropTestFileDatabase)
 * ```
 */
export async function dropTestFileDatabase(): Promise<void> {
  const made = database
  database = undefined
  freeSchemas = []
  if (made) await (await made).drop()
}
