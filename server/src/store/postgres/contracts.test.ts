import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { describeAuthPortContract } from '../auth/auth-port.contract.js'
import { describeBackendContract } from '../backend.contract.js'
import { describeDatasetPortContract } from '../dataset/dataset-port.contract.js'
import type { Backend } from '../backend.js'
import type { Clock } from '../clock.js'
import { describeFilesPortContract } from '../files/files-port.contract.js'
import { describeTablesPortContract } from '../tables/tables-port.contract.js'
import { openPostgresBackend } from './backend.js'
import { createTestDatabase, type TestDatabase } from './test-database.test-support.js'

// One database per run of this file, migrated once; each test opens a backend on it and, on close, drops the user
// tables it made (real PostgreSQL tables, `ut_<ulid>`) and empties the rest: a migrated, empty backend again.
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
          const userTables = await database.admin<Array<{ name: string }>>`
            SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) AS name FROM pg_tables
            WHERE schemaname = ${schema} AND tablename LIKE 'ut\\_%'`
          if (userTables.length > 0) await database.admin.unsafe(`DROP TABLE ${userTables.map((table) => table.name).join(', ')}`)
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
describeTablesPortContract('postgres', open)
describeBackendContract('postgres', open)
describeDatasetPortContract('postgres', open)
