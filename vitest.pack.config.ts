import { defineConfig } from 'vitest/config'

// `npm run test:pack`: the tarball test (npm pack, install into a fresh folder, run the CLI). Apart from `npm test`
// because it builds and installs a whole dependency tree (better-sqlite3 compiles where no prebuilt binary is
// reachable): minutes, not seconds.
export default defineConfig({
  test: {
    include: ['test/packaging/**/*.pack-test.ts'],
    testTimeout: 20 * 60_000,
    hookTimeout: 20 * 60_000,
    pool: 'forks',
  },
})
