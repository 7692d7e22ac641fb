import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { describeAuthPortContract } from '../auth/auth-port.contract.js'
import { describeBackendContract } from '../backend.contract.js'
import type { Backend } from '../backend.js'
import type { Clock } from '../clock.js'
import { describeFilesPortContract } from '../files/files-port.contract.js'
import { describeTablesPortContract } from '../tables/tables-port.contract.js'
import { openPostgresBackend } from './postgres-backend.js'
import { createTestDatabase, type TestDatabase } from './test-database.test-support.js'

// One database per run of this file; each test opens a backend in a schema of its own, dropped on close, so user
// tables (real PostgreSQL tables) never outlive their test.
let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.drop()
})

async function open(now: Clock): Promise<{ backend: Backend; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'botshelf-pg-contracts-'))
  const schema = database.freshSchema()
  try {
    const backend = await openPostgresBackend({ url: database.url, dataDir, now, schema, poolSize: 4 })
    return {
      backend,
      close: async () => {
        try {
          await backend.close()
          await database.admin.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
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

describeAuthPortContract('postgres', open)
describeFilesPortContract('postgres', open)
describeTablesPortContract('postgres', open)
describeBackendContract('postgres', open)
