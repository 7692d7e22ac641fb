import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { describeAuthPortContract } from '../auth/auth-port.contract.js'
import type { Backend } from '../backend.js'
import type { Clock } from '../clock.js'
import { describeFilesPortContract } from '../files/files-port.contract.js'
import { openPostgresBackend } from './postgres-backend.js'
import { createTestDatabase, type TestDatabase } from './test-database.test-support.js'

// One database per run of this file, migrated once; each test opens a backend on it and empties it on close.
// The tables and whole-backend contracts need the PostgreSQL tables port (every case of the backend contract
// starts by creating a table); until it is part of the build, the transaction semantics they check are covered
// on the other ports by postgres-backend.test.ts.
let database: TestDatabase
let schema: string
beforeAll(async () => {
  database = await createTestDatabase()
  schema = database.freshSchema()
})
afterAll(async () => {
  await database?.drop()
})

async function open(now: Clock): Promise<{ backend: Backend; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'botshelf-pg-contracts-'))
  try {
    const backend = await openPostgresBackend({ url: database.url, dataDir, now, schema, poolSize: 4 })
    return {
      backend,
      close: async () => {
        try {
          await backend.close()
          await database.empty(schema)
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
