import type { Backend } from '../../server/src/store/index.js'
import type { Clock } from '../../server/src/store/clock.js'
import { openPostgresBackend } from '../../server/src/store/postgres/backend.js'
import { openSqliteBackend } from '../../server/src/store/sqlite/backend.js'
import { testFileSchema } from './postgres-database.js'

/** How a test opens one backend: in its data folder (a fresh temp dir), with the test's clock. */
export type TestBackendFactory = (options: { dataDir: string; now?: Clock }) => Promise<Backend>

/**
 * Every backend the end-to-end tests run against, by name. A new adapter runs the whole end-to-end suite by
 * adding its name here (and a project in vitest.config.ts picks it up).
 */
export const testBackends = {
  sqlite: ({ dataDir, now }) => openSqliteBackend({ dataDir, ...(now ? { now } : {}) }),
  'sqlite-memory': ({ now }) => openSqliteBackend({ memory: true, ...(now ? { now } : {}) }),
  // The worker's test database (postgres-database.ts), an empty migrated schema of its own per backend opened (one
  // a closed backend left, emptied, or a fresh one); content in the data folder.
  postgres: async ({ dataDir, now }) => {
    const taken = await testFileSchema()
    const backend = await openPostgresBackend({ url: taken.url, schema: taken.schema, dataDir, poolSize: 4, ...(now ? { now } : {}) })
    await taken.opened()
    const close = backend.close.bind(backend)
    let closed: Promise<void> | undefined
    backend.close = () => (closed ??= close().then(() => taken.release()))
    return backend
  },
} satisfies Record<string, TestBackendFactory>

/** A backend name of {@link testBackends}. */
export type TestBackendName = keyof typeof testBackends

/**
 * The backend this test run targets: `BOTSHELF_TEST_BACKEND` (set per vitest project), or file-backed SQLite.
 */
export function currentTestBackend(): TestBackendName {
  const name = process.env['BOTSHELF_TEST_BACKEND'] ?? 'sqlite'
  if (!(name in testBackends)) throw new Error(`BOTSHELF_TEST_BACKEND: expected one of ${Object.keys(testBackends).join(', ')}, received ${JSON.stringify(name)}`)
  return name as TestBackendName
}
