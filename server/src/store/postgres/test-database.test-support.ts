import { randomBytes } from 'node:crypto'
import postgres from 'postgres'

/**
 * The server the PostgreSQL tests create their databases on (trust auth); `BOTSHELF_TEST_POSTGRES_URL` overrides
 * it. Each test run creates databases of its own and drops them after.
 */
export const testPostgresAdminUrl = process.env['BOTSHELF_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres'

/** The `application_name` of a test database's administrator connections (kept when leftovers are ended). */
export const testAdminApplicationName = 'botshelf-test-admin'

/** A database made for one test file. */
export interface TestDatabase {
  /** Its name, `botshelf_t_<random>`. */
  name: string
  /** A URL that connects to it. */
  url: string
  /** A fresh schema name for one test (`schema` of `openPostgresBackend`), unique in this database. */
  freshSchema(): string
  /** Empties every table of a schema but its migrations record: a migrated, empty backend again. */
  empty(schema: string): Promise<void>
  /** Runs statements on it as the administrator (for tests that reach behind the backend). */
  admin: postgres.Sql
  /**
   * Records what a freshly migrated schema holds (relations, functions, triggers): call once a backend has migrated
   * `schema`; only the first call reads the catalog.
   */
  notePristine(schema: string): Promise<void>
  /**
   * Gives a schema a closed backend used its migrated, empty state back: drops the tables and functions the backend
   * made at run time (user tables, their vector and staging tables), empties the rest, and answers whether its
   * catalog is then exactly the pristine one. Without `notePristine` first it changes nothing and answers false.
   */
  resetSchema(schema: string): Promise<boolean>
  /** Ends every connection on it but the administrator's (the backends a test left open). */
  endOtherConnections(): Promise<void>
  /** Drops it, ending every connection still open on it. */
  drop(): Promise<void>
}

function urlOf(database: string): string {
  const url = new URL(testPostgresAdminUrl)
  url.pathname = `/${database}`
  return url.toString()
}

/**
 * Creates a fresh, empty database with a unique name (`<prefix>_<random>`, `botshelf_t` unless given); `drop()`
 * removes it (call it in `afterAll`).
 *
 * @example
 * ```ts
 * let db: TestDatabase
 * beforeAll(async () => { db = await createTestDatabase() })
 * afterAll(() => db.drop())
 * ```
 */
export async function createTestDatabase(options: { prefix?: string } = {}): Promise<TestDatabase> {
  const name = `${options.prefix ?? 'botshelf_t'}_${randomBytes(6).toString('hex')}`
  const server = postgres(testPostgresAdminUrl, { max: 1, onnotice: () => {} })
  try {
    await server`CREATE DATABASE ${server(name)}`
  } finally {
    await server.end({ timeout: 5 })
  }
  const admin = postgres(urlOf(name), { max: 2, onnotice: () => {}, connection: { application_name: testAdminApplicationName } })
  let schemas = 0
  let pristine: Promise<string> | undefined
  const empty = async (schema: string): Promise<void> => {
    const tables = await admin<Array<{ name: string }>>`
      SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) AS name FROM pg_tables
      WHERE schemaname = ${schema} AND tablename <> 'botshelf_migrations'`
    // DELETE, not TRUNCATE: a few rows go in milliseconds, where TRUNCATE makes new files and syncs them. Foreign
    // keys are not checked meanwhile (the administrator is a superuser), so the order of the tables does not matter.
    await admin.begin(async (tx) => {
      await tx`SET LOCAL session_replication_role = replica`
      for (const table of tables) await tx.unsafe(`DELETE FROM ${table.name}`)
    })
  }
  return {
    name,
    url: urlOf(name),
    admin,
    freshSchema: () => `t_${++schemas}_${randomBytes(3).toString('hex')}`,
    empty,
    async notePristine(schema) {
      pristine ??= catalogOf(admin, schema)
      await pristine
    },
    async resetSchema(schema) {
      if (!pristine) return false
      const expected = await pristine
      await dropWhatMigrationsDidNotMake(admin, schema, expected)
      await empty(schema)
      return (await catalogOf(admin, schema)) === expected
    },
    async endOtherConnections() {
      await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = ${name} AND pid <> pg_backend_pid() AND application_name <> ${testAdminApplicationName}`
    },
    async drop() {
      await admin.end({ timeout: 5 })
      const dropper = postgres(testPostgresAdminUrl, { max: 1, onnotice: () => {} })
      try {
        await dropper`DROP DATABASE IF EXISTS ${dropper(name)} WITH (FORCE)`
      } finally {
        await dropper.end({ timeout: 5 })
      }
    },
  }
}

/** The schema's relations, functions and (user) triggers, one per line, sorted. */
async function catalogOf(admin: postgres.Sql, schema: string): Promise<string> {
  const rows = await admin<Array<{ item: string }>>`
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
async function dropWhatMigrationsDidNotMake(admin: postgres.Sql, schema: string, expected: string): Promise<void> {
  const keep = new Set(expected.split('\n'))
  const tables = await admin<Array<{ name: string; item: string }>>`
    SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name, 'relation r ' || c.relname AS item
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ${schema} AND c.relkind = 'r'`
  const extraTables = tables.filter((table) => !keep.has(table.item)).map((table) => table.name)
  if (extraTables.length > 0) await admin.unsafe(`DROP TABLE IF EXISTS ${extraTables.join(', ')} CASCADE`)
  const functions = await admin<Array<{ signature: string }>>`
    SELECT p.oid::regprocedure::text AS signature FROM pg_proc p
    JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = ${schema}`
  for (const { signature } of functions) {
    if (!keep.has(`function ${signature.replace(`${schema}.`, '')}`)) await admin.unsafe(`DROP FUNCTION IF EXISTS ${signature} CASCADE`)
  }
}
