import { defineConfig } from 'vitest/config'

// `npm run test:pack`: the tarball test (npm pack of botshelf and botshelf-server, installed into fresh folders,
// alone and together; decision 1307). Apart from `npm test` because it builds and installs the service's whole
// dependency tree (better-sqlite3 compiles where no prebuilt binary is reachable): minutes, not seconds.
export default defineConfig({
  test: {
    include: ['test/packaging/**/*.pack-test.ts'],
    testTimeout: 20 * 60_000,
    hookTimeout: 20 * 60_000,
    pool: 'forks',
  },
})
