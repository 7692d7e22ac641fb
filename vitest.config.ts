import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Tests run on the sources of both packages: the service's imports of `botshelf/...` resolve to this package's src/
// (as tsconfig.json's paths do for the typecheck), so a test never runs against a stale dist/.
const source = (path: string): string => fileURLToPath(new URL(path, import.meta.url))
const alias = [
  { find: /^botshelf$/, replacement: source('./src/index.ts') },
  { find: /^botshelf\/client$/, replacement: source('./src/client/index.ts') },
  { find: /^botshelf\/testing$/, replacement: source('./src/testing/index.ts') },
  { find: /^botshelf\/api$/, replacement: source('./src/api/index.ts') },
  { find: /^botshelf-server$/, replacement: source('./server/src/index.ts') },
]

// Every backend the end-to-end tests run against (test/helpers/backends.ts): the first runs every test, the
// others re-run the end-to-end folders that go through the backend only (no CLI, no data-folder crash tests).
// PostgreSQL needs the server of scripts/test-services.sh (one database per worker, dropped after the run).
// `npm test` runs the two engines (file-backed SQLite with every test, PostgreSQL with the end-to-end folders);
// BOTSHELF_TEST_BACKENDS picks others, e.g. `BOTSHELF_TEST_BACKENDS=sqlite,sqlite-memory,postgres npx vitest run`
// adds in-memory SQLite (the same adapter without a data folder), kept out of the default run for its time.
const backends = (process.env['BOTSHELF_TEST_BACKENDS'] ?? 'sqlite,postgres').split(',').map((name) => name.trim()).filter(Boolean)
// Setup files a backend's project needs (PostgreSQL ends the connections a test file left open), and its global
// setup (PostgreSQL: one database per worker, all dropped after the run).
const setupFiles: Record<string, string[]> = { postgres: ['test/helpers/postgres-setup.ts'] }
const globalSetup: Record<string, string[]> = { postgres: ['test/helpers/postgres-global-setup.ts'] }
const endToEnd = ['test/files/**/*.test.ts', 'test/admin/**/*.test.ts', 'test/tables/**/*.test.ts', 'test/client/**/*.test.ts', 'test/server/**/*.test.ts', 'test/testing/**/*.test.ts', 'test/runtime/**/*.test.ts']
// End-to-end files a backend cannot pass yet, each with the reason (nothing is skipped silently).
const notOn: Record<string, string[]> = {
  // HTTP-layer bounds on servers of their own (`createServer({ memory: true })`): the file never uses the run's
  // backend, so the PostgreSQL project would run the same in-memory SQLite tests a second time. It runs once.
  // 200 concurrent @botpress/client loops on PostgreSQL: one upload in 1,000 was answered 500 in three fresh-clone
  // runs (never alone): an open bug, first on the list (issue 27's closing note). It runs on SQLite meanwhile.
  postgres: ['test/server/slow-clients.test.ts', 'test/client/default-load.e2e.test.ts'],
}

// Files that replace a module (`vi.mock`) need a module graph of their own: every other file shares its worker's
// graph with the files the worker ran before (decision 1454), where the real module is already loaded.
// test/admin/bp-cli.test.ts: its @botpress/cli child answered "Unknown or revoked token" once after other files
// had run in its worker (cause not found yet, decision 1454), so it runs isolated until that is explained.
const ownModuleGraph = ['server/src/store/sqlite/backend.test.ts', 'test/admin/bp-cli.test.ts']

// One file per core (decision 1454): the files wait on sockets, fsync, PostgreSQL and child processes, so a second
// worker on 2 cores halves the wall time; BOTSHELF_TEST_WORKERS sets another count.
const workers = Number(process.env['BOTSHELF_TEST_WORKERS'] ?? 0) || Math.max(2, availableParallelism())

export default defineConfig({
  resolve: { alias },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: workers,
    // A worker keeps its modules from one file to the next (decision 1454): the service's graph is imported once
    // per worker, not once per file. Each file still starts its own services, databases and folders.
    isolate: false,
    // Transformed modules are kept on disk between runs (node_modules/.experimental-vitest-cache, keyed by each
    // file's content): the Node 22 and 24 runs after `npm test` and a developer's next run skip the transform
    // (decision 1455: test/server's run went from 62 to 50 s of CPU with a warm cache).
    experimental: { fsModuleCache: true },
    projects: backends.flatMap((backend, index) => {
      const include = index === 0 ? ['src/**/*.test.ts', 'server/src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'] : endToEnd
      const project = (name: string, files: string[], isolate: boolean, exclude: string[]) => ({
        extends: true as const,
        test: {
          name,
          include: files,
          exclude: [...(notOn[backend] ?? []), ...exclude, '**/node_modules/**'],
          isolate,
          env: { BOTSHELF_TEST_BACKEND: backend },
          ...(setupFiles[backend] ? { setupFiles: setupFiles[backend] } : {}),
          ...(globalSetup[backend] ? { globalSetup: globalSetup[backend] } : {}),
        },
      })
      // The files of ownModuleGraph this backend runs, in a project of their own that isolates each file.
      const own = ownModuleGraph.filter((file) => index === 0 || endToEnd.some((glob) => file.startsWith(glob.slice(0, glob.indexOf('*')))))
      return [project(backend, include, false, ownModuleGraph), ...(own.length > 0 ? [project(`${backend}-own-module-graph`, own, true, [])] : [])]
    }),
  },
})
