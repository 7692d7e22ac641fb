import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describeAuthPortContract } from '../auth/auth-port.contract.js'
import { describeBackendContract } from '../backend.contract.js'
import { describeDatasetPortContract } from '../dataset/dataset-port.contract.js'
import type { Backend } from '../backend.js'
import type { Clock } from '../clock.js'
import { describeFilesPortContract } from '../files/files-port.contract.js'
import { describeSearchPortContract } from '../search/search-port.contract.js'
import { describeTablesPortContract } from '../tables/tables-port.contract.js'
import { openSqliteBackend } from './backend.js'

type Open = (now: Clock) => Promise<{ backend: Backend; close(): Promise<void> }>

/** A short bound on waits for an open transaction, so the refusal of a call made from inside one comes fast. */
const transactionWaitMs = 250

/** The embedded backend in a fresh data folder under the system temp dir, removed on close. */
const fileBacked: Open = async (now) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'botshelf-contracts-'))
  try {
    const backend = await openSqliteBackend({ dataDir, now, transactionWaitMs })
    return {
      backend,
      close: async () => {
        try {
          await backend.close()
        } finally {
          rmSync(dataDir, { recursive: true, force: true })
        }
      },
    }
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true })
    throw error
  }
}

/** The embedded backend in memory (its temporary content folder goes with close). */
const inMemory: Open = async (now) => {
  const backend = await openSqliteBackend({ memory: true, now, transactionWaitMs })
  return { backend, close: () => backend.close() }
}

for (const [name, open] of [
  ['sqlite', fileBacked],
  ['sqlite-memory', inMemory],
] as const) {
  describeAuthPortContract(name, open)
  describeFilesPortContract(name, open)
  describeTablesPortContract(name, open)
  describeBackendContract(name, open)
  describeDatasetPortContract(name, open)
  describeSearchPortContract(name, open)
}
