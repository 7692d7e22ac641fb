import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { describeJobQueueContract } from '../../jobs/job-queue.contract.js'
import { openPostgresBackend } from '../backend.js'
import { createTestDatabase, type TestDatabase } from '../test-database.test-support.js'

let database: TestDatabase
let schema: string
beforeAll(async () => {
  database = await createTestDatabase()
  schema = database.freshSchema()
})
afterAll(async () => {
  await database?.drop()
})

describeJobQueueContract('postgres', async (now) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'botshelf-pg-jobs-'))
  const backend = await openPostgresBackend({ url: database.url, dataDir, now, schema, poolSize: 4 })
  return {
    queue: backend.jobs,
    close: async () => {
      await backend.close()
      await database.empty(schema)
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
})
