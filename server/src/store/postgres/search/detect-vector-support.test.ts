import type postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { detectVectorSupport } from './detect-vector-support.js'
import { pgliteSql } from './pglite-sql.test-support.js'
import { pgliteDatabase, type SchemaSource } from './test-databases.test-support.js'

describe('detectVectorSupport', () => {
  let withVector: SchemaSource & { db: import('@electric-sql/pglite').PGlite }
  let without: SchemaSource & { db: import('@electric-sql/pglite').PGlite }
  beforeAll(async () => {
    withVector = await pgliteDatabase({ withVector: true })
    without = await pgliteDatabase({ withVector: false })
  }, 60_000)
  afterAll(async () => {
    await withVector?.drop()
    await without?.drop()
  })

  it('is pgvector where the vector extension can be created', async () => {
    expect(await detectVectorSupport(pgliteSql(withVector.db))).toBe('pgvector')
  })

  it('is exact where it cannot, and leaves a surrounding transaction usable', async () => {
    const sql = pgliteSql(without.db)
    expect(await detectVectorSupport(sql)).toBe('exact')
    const answer = await (sql as postgres.Sql).begin(async (tx) => {
      expect(await detectVectorSupport(tx)).toBe('exact')
      return tx`SELECT 1 AS one`
    })
    expect([...answer]).toEqual([{ one: 1 }])
  })
})
