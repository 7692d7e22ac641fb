import { inject } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../server/src/store/postgres/test-database.test-support.js'

// One database per worker in the postgres project: its global setup (postgres-global-setup.ts) names this run's
// databases and drops them all after the run; after each file, the setup file (postgres-setup.ts) only ends the
// connections the file's backends left open. Elsewhere (no run prefix given) it is one database per file, dropped
// after the file's last test. Either way, a file's backends each get an empty migrated schema of their own.
let database: Promise<TestDatabase> | undefined
// Schemas of that database a closed backend left migrated and empty again, for the next backend to take: migrating a
// fresh schema costs ~300 ms of PostgreSQL work, emptying a used one ~20 ms (the port contracts do the same).
let freeSchemas: string[] = []
// What a freshly migrated schema holds (relations, functions, triggers), read once per database: a used schema is
// taken back only when, emptied, it holds exactly that again.
let pristine: Promise<string> | undefined

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
      if (reusedName === undefined && database === made && pristine === undefined) {
        pristine = catalogOf(db, schema)
        await pristine
      }
    },
    async release() {
      // The file's database may be gone (dropped after its last test) or replaced: nothing to give back then.
      if (database !== made || pristine === undefined) return
      const expected = await pristine
      await dropWhatMigrationsDidNotMake(db, schema, expected)
      await db.empty(schema)
      if ((await catalogOf(db, schema)) === expected && database === made) freeSchemas.push(schema)
    },
  }
}

/** The schema's relations, functions and (user) triggers, one per line, sorted. */
async function catalogOf(db: TestDatabase, schema: string): Promise<string> {
  const rows = await db.admin<Array<{ item: string }>>`
    SELECT 'relation ' || c.relkind::text || ' ' || c.relname AS item FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ${schema}
    UNION ALL
    SELECT 'function ' || p.oid::regprocedure::text FROM pg_proc p
      JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = ${schema}
    UNION ALL
    SELECT 'trigger ' || c.relname || ' ' || t.tgname FROM pg_trigger t
      JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ${schema} AND NOT t.tgisinternal
    ORDER BY 1`
  // regprocedure names the function with its schema while it is not on the search path: keep only the bare name.
  return rows.map((row) => row.item.replace(`${schema}.`, '')).join('\n')
}

/** Drops the tables and functions a backend made at run time (user tables, their vectors and staging tables). */
async function dropWhatMigrationsDidNotMake(db: TestDatabase, schema: string, expected: string): Promise<void> {
  const keep = new Set(expected.split('\n'))
  const tables = await db.admin<Array<{ name: string; item: string }>>`
    SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name, 'relation r ' || c.relname AS item
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ${schema} AND c.relkind = 'r'`
  const extraTables = tables.filter((table) => !keep.has(table.item)).map((table) => table.name)
  if (extraTables.length > 0) await db.admin.unsafe(`DROP TABLE IF EXISTS ${extraTables.join(', ')} CASCADE`)
  const functions = await db.admin<Array<{ signature: string }>>`
    SELECT p.oid::regprocedure::text AS signature FROM pg_proc p
    JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = ${schema}`
  for (const { signature } of functions) {
    if (!keep.has(`function ${signature.replace(`${schema}.`, '')}`)) await db.admin.unsafe(`DROP FUNCTION IF EXISTS ${signature} CASCADE`)
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
  pristine = undefined
  if (made) await (await made).drop()
}
