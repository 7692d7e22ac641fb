import { createTestDatabase, type TestDatabase } from '../../server/src/store/postgres/test-database.test-support.js'

// One database per test file: vitest evaluates modules afresh for each file, so this is per file; the setup file
// of the postgres project (postgres-setup.ts) drops it after the file's last test.
let database: Promise<TestDatabase> | undefined

/**
 * The PostgreSQL database of the running test file, created on first use.
 *
 * @example
 * ```ts
 * const { url, freshSchema } = await testFileDatabase()
 * ```
 */
export function testFileDatabase(): Promise<TestDatabase> {
  database ??= createTestDatabase()
  return database
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
  if (made) await (await made).drop()
}
