import { defineConfig } from 'vitest/config'

// Every backend the end-to-end tests run against (test/helpers/backends.ts): the first runs every test, the
// others re-run the end-to-end folders that go through the backend only (no CLI, no data-folder crash tests).
// BOTSHELF_TEST_BACKENDS=postgres (comma-separated) adds backends that are not on by default: PostgreSQL needs
// the server of scripts/test-services.sh, and its tables port before the end-to-end folders can pass on it.
const optionalBackends = ['postgres']
const extraBackends = (process.env['BOTSHELF_TEST_BACKENDS'] ?? '').split(',').map((name) => name.trim()).filter(Boolean)
for (const name of extraBackends) {
  if (!optionalBackends.includes(name)) throw new Error(`BOTSHELF_TEST_BACKENDS: expected names among ${optionalBackends.join(', ')}, received ${JSON.stringify(name)}`)
}
const backends = ['sqlite', 'sqlite-memory', ...extraBackends]
// Setup files a backend's project needs (PostgreSQL drops the database each test file made).
const setupFiles: Record<string, string[]> = { postgres: ['test/helpers/postgres-setup.ts'] }
const endToEnd = ['test/files/**/*.test.ts', 'test/tables/**/*.test.ts', 'test/client/**/*.test.ts', 'test/server/**/*.test.ts', 'test/testing/**/*.test.ts']

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    projects: backends.map((backend, index) => ({
      extends: true,
      test: {
        name: backend,
        include: index === 0 ? ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'] : endToEnd,
        env: { BOTSHELF_TEST_BACKEND: backend },
        ...(setupFiles[backend] ? { setupFiles: setupFiles[backend] } : {}),
      },
    })),
  },
})
