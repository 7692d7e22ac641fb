/**
 * The differential tests of the tables port against the mingo oracle (src/store/tables/tables-port.oracle.ts), on
 * the backend of this test project (file-backed or in-memory SQLite).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describeTablesDifferential } from '../../server/src/store/tables/tables-port.oracle.js'
import { currentTestBackend, testBackends } from '../helpers/backends.js'

const backend = currentTestBackend()
describeTablesDifferential(backend, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'botshelf-differential-'))
  const opened = await testBackends[backend]({ dataDir })
  return {
    tables: opened.tables,
    close: async () => {
      try {
        await opened.close()
      } finally {
        rmSync(dataDir, { recursive: true, force: true })
      }
    },
  }
})
