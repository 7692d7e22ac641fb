import { afterAll, beforeAll } from 'vitest'
import { describeSearchPortContract } from '../../search/search-port.contract.js'
import { openSearchTestBackend } from './search-test-backend.test-support.js'
import { pgliteDatabase, realPostgresDatabase, type SchemaSource } from './test-databases.test-support.js'

// (1) The real PostgreSQL server (it has no pgvector): exact vectors, a fresh database dropped after the file.
let real: SchemaSource
beforeAll(async () => {
  real = await realPostgresDatabase()
})
afterAll(async () => {
  await real?.drop()
})
describeSearchPortContract('postgres, exact vectors', async (now) => {
  const { sql, close } = await real.openSchema()
  return { backend: await openSearchTestBackend(sql, now, 'exact'), close }
})

// (2) PGlite with pgvector: the vector column, the <=> operator and HNSW indexes.
let lite: SchemaSource
beforeAll(async () => {
  lite = await pgliteDatabase({ withVector: true })
})
afterAll(async () => {
  await lite?.drop()
})
describeSearchPortContract('pglite, pgvector', async (now) => {
  const { sql, close } = await lite.openSchema()
  return { backend: await openSearchTestBackend(sql, now, 'pgvector'), close }
})
