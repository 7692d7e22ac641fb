import { afterAll, beforeAll } from 'vitest'
import { describeTablesDifferential } from '../../tables/tables-port.oracle.js'
import { createTestDatabase, type TestDatabase } from './test-database.test-support.js'

// The mingo differential tests of filters, deletes and groups, unchanged, on PostgreSQL (one schema for all seeds).
let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.drop()
})

describeTablesDifferential('postgres', async () => {
  const { tables, close } = await database.openTables(() => new Date())
  return { tables, close }
})
