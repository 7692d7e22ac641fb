import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPostgresBackend, type PostgresBackend } from '../backend.js'
import { createTestDatabase, type TestDatabase } from '../test-database.test-support.js'

let database: TestDatabase
let backend: PostgresBackend
let schema: string
const dataDir = mkdtempSync(join(tmpdir(), 'botshelf-pg-claim-'))
beforeAll(async () => {
  database = await createTestDatabase()
  schema = database.freshSchema()
  backend = await openPostgresBackend({ url: database.url, dataDir, schema, poolSize: 2 })
})
afterAll(async () => {
  await backend?.close()
  await database?.drop()
  rmSync(dataDir, { recursive: true, force: true })
})

/** Resolves once some session of the test database waits for a row lock: the claimer is blocked. */
async function someoneWaitsForALock(stop: { done: boolean }): Promise<'blocked'> {
  while (!stop.done) {
    const [waiting] = await database.admin<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = ${database.name} AND wait_event_type = 'Lock'`
    if (waiting!.n > 0) return 'blocked'
    await new Promise((resolve) => setImmediate(resolve))
  }
  return new Promise<never>(() => {})
}

// Issue 28: with `FOR UPDATE` instead of `FOR UPDATE SKIP LOCKED` every test passed, a blocked claimer only waited.
describe('PostgreSQL job claim', () => {
  it('passes over a job another connection holds locked and takes the next one without waiting', async () => {
    const oldest = await backend.jobs.enqueue({ kind: 'k', payload: { n: 1 }, runAt: new Date(Date.now() - 2000) })
    const next = await backend.jobs.enqueue({ kind: 'k', payload: { n: 2 }, runAt: new Date(Date.now() - 1000) })
    // A second connection holds the oldest job's row, as a claimer in the middle of its statement would.
    const holder = await database.admin.reserve()
    const stop = { done: false }
    try {
      await holder`BEGIN`
      await holder`SELECT seq FROM ${holder(schema)}.queue_jobs WHERE id = ${oldest.job.id} FOR UPDATE`
      const outcome = await Promise.race([backend.jobs.claim({ workerId: 'w', leaseMs: 30_000 }), someoneWaitsForALock(stop)])
      expect(outcome, 'the claim waited for the locked row instead of skipping it').not.toBe('blocked')
      expect(outcome === 'blocked' ? undefined : outcome?.id).toBe(next.job.id)
    } finally {
      stop.done = true
      await holder`ROLLBACK`
      holder.release()
    }
    // Released, the oldest is the next claim.
    expect((await backend.jobs.claim({ workerId: 'w', leaseMs: 30_000 }))?.id).toBe(oldest.job.id)
  })
})
