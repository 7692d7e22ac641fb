import { afterAll, beforeAll } from 'vitest'
import { describeTablesPortContract } from '../../tables/tables-port.contract.js'
import { createTestDatabase, type TestDatabase } from './test-database.test-support.js'

// The tables port contract, unchanged, on PostgreSQL: a fresh database for the run, a fresh schema per test.
let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.drop()
})

describeTablesPortContract('postgres', async (now) => {
  const { tables, close } = await database.openTables(now)
  return { backend: { tables }, close }
})
