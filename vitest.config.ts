import { defineConfig } from 'vitest/config'

// Every backend the end-to-end tests run against (test/helpers/backends.ts): the first runs every test, the
// others re-run the end-to-end folders that go through the backend only (no CLI, no data-folder crash tests).
const backends = ['sqlite', 'sqlite-memory']
const endToEnd = ['test/files/**/*.test.ts', 'test/admin/**/*.test.ts', 'test/tables/**/*.test.ts', 'test/client/**/*.test.ts', 'test/server/**/*.test.ts', 'test/testing/**/*.test.ts']

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
      },
    })),
  },
})
