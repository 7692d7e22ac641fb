import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Clock } from '../../clock.js'
import type { JobQueue } from '../../jobs/job-queue.js'
import { asyncPort } from '../guarded-port.js'
import { jobsMigrations } from './migrations.js'
import { runMigrations } from '../migrations.js'
import { openDatabase, type Sqlite } from '../connect.js'
import { jobQueueMethods, SqliteJobQueue } from './job-queue.js'

function migrated(filename: string): Sqlite {
  const db = openDatabase(filename)
  runMigrations(db, jobsMigrations)
  return db
}

// The JobQueue contract runs on every backend in store/contracts.test.ts; these are SQLite's own checks.
describe('SqliteJobQueue', () => {
  const start = Date.parse('2026-03-01T12:00:00.000Z')
  const clock: Clock = () => new Date(start)
  const cleanup: Array<() => void> = []
  afterEach(() => {
    for (const step of cleanup.splice(0).reverse()) step()
  })

  function memoryQueue(): { db: Sqlite; queue: SqliteJobQueue } {
    const db = migrated(':memory:')
    cleanup.push(() => db.close())
    return { db, queue: new SqliteJobQueue(db, clock) }
  }

  function sharedFile(): [SqliteJobQueue, SqliteJobQueue] {
    const dir = mkdtempSync(join(tmpdir(), 'botshelf-jobs-'))
    const first = migrated(join(dir, 'botshelf.db'))
    const second = migrated(join(dir, 'botshelf.db'))
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }), () => first.close(), () => second.close())
    return [new SqliteJobQueue(first, clock), new SqliteJobQueue(second, clock)]
  }

  it('names jobs job_ + ULID', () => {
    const { queue } = memoryQueue()
    expect(queue.enqueue({ kind: 'k' }).job.id).toMatch(/^job_[0-9A-HJKMNP-TV-Z]{26}$/)
  })

  it('gives each job to one of two connections on the same file, and dedupes across them', () => {
    const [a, b] = sharedFile()
    for (let i = 0; i < 6; i++) a.enqueue({ kind: 'k', payload: i })
    const ids: string[] = []
    for (let turn = 0; turn < 8; turn++) {
      const job = (turn % 2 === 0 ? a : b).claim({ workerId: `w${turn}`, leaseMs: 1_000 })
      if (job) ids.push(job.id)
    }
    expect(ids).toHaveLength(6)
    expect(new Set(ids).size).toBe(6)

    const first = a.enqueue({ kind: 'import', dedupeKey: 'tj_1' })
    const second = b.enqueue({ kind: 'import', dedupeKey: 'tj_1' })
    expect(second).toEqual({ job: first.job, created: false })
  })

  it('refuses a second live job with the same kind and dedupe key in the table itself', () => {
    const { db, queue } = memoryQueue()
    const { job } = queue.enqueue({ kind: 'import', dedupeKey: 'tj_1' })
    const insert = db.prepare(
      `INSERT INTO queue_jobs (id, kind, payload_json, state, attempts, max_attempts, dedupe_key, run_at, created_at, updated_at)
       VALUES (?, 'import', 'null', 'pending', 0, 5, 'tj_1', 'x', 'x', 'x')`,
    )
    expect(() => insert.run('job_raced')).toThrow(/UNIQUE/)
    queue.claim({ workerId: 'w', leaseMs: 1_000 })
    expect(() => insert.run('job_raced')).toThrow(/UNIQUE/)
    queue.complete(job.id, 'w')
    expect(() => insert.run('job_after')).not.toThrow()
  })

  it('finds due jobs through the claim indexes', () => {
    const { db, queue } = memoryQueue()
    const prepare = vi.spyOn(db, 'prepare')
    queue.claim({ workerId: 'w', leaseMs: 1_000 })
    const pick = prepare.mock.calls.map(([sql]) => sql).find((sql) => sql.includes('UNION ALL') && sql.includes('run_at <= @now'))
    expect(pick).toBeDefined()
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${pick}`).all({ now: '2026-01-01T00:00:00.000Z', kinds: null, skipBots: null }) as Array<{ detail: string }>)
      .map((row) => row.detail)
      .join('\n')
    // Each half is a range search on its own index, not a scan of every job ever queued.
    expect(plan).toMatch(/SEARCH queue_jobs USING (COVERING )?INDEX queue_jobs_due \(state=\? AND run_at<\?\)/)
    expect(plan).toMatch(/SEARCH queue_jobs USING (COVERING )?INDEX queue_jobs_lease \(state=\? AND lease_expires_at<\?\)/)
    expect(plan).not.toMatch(/SCAN queue_jobs/)
  })

  it('lists at most 500 jobs whatever the limit asked', () => {
    const { queue } = memoryQueue()
    for (let i = 0; i < 510; i++) queue.enqueue({ kind: 'k' })
    expect(queue.list({ limit: 10_000 })).toHaveLength(500)
  })

  it('refuses inputs no backend could honour', () => {
    const { queue } = memoryQueue()
    expect(() => queue.enqueue({ kind: '' })).toThrow(RangeError)
    expect(() => queue.enqueue({ kind: 'k', maxAttempts: 0 })).toThrow(/maxAttempts/)
    expect(() => queue.enqueue({ kind: 'k', maxAttempts: 1.5 })).toThrow(/maxAttempts/)
    expect(() => queue.enqueue({ kind: 'k', runAt: new Date('nope') })).toThrow(/runAt/)
    expect(() => queue.claim({ workerId: 'w', leaseMs: 0 })).toThrow(/leaseMs/)
    expect(() => queue.claim({ workerId: '', leaseMs: 1_000 })).toThrow(/workerId/)
    expect(() => queue.heartbeat('job_x', 'w', Number.NaN)).toThrow(/leaseMs/)
    expect(() => queue.list({ limit: 0 })).toThrow(/limit/)
    expect(queue.list()).toEqual([])
  })

  it('prepares its statements once and reuses them', () => {
    const { db, queue } = memoryQueue()
    const round = (): void => {
      const { job } = queue.enqueue({ kind: 'k', dedupeKey: 'd' })
      queue.enqueue({ kind: 'k', dedupeKey: 'd' })
      queue.claim({ workerId: 'w', leaseMs: 1_000, kinds: ['k'] })
      queue.heartbeat(job.id, 'w', 1_000)
      queue.fail(job.id, 'w', { error: 'x', retry: false })
      const other = queue.enqueue({ kind: 'k', maxAttempts: 2 }).job
      queue.claim({ workerId: 'w', leaseMs: 1_000 })
      queue.fail(other.id, 'w', { error: 'y' })
      queue.complete(other.id, 'w')
      queue.get(job.id)
      queue.list({ kind: 'k' })
      queue.nextDueAt(['k'])
    }
    round()
    const prepare = vi.spyOn(db, 'prepare')
    round()
    round()
    expect(prepare).not.toHaveBeenCalled()
  })

  it('keeps the port shape: the wrapped queue is a JobQueue', async () => {
    const { queue } = memoryQueue()
    const port: JobQueue = asyncPort(queue, jobQueueMethods)
    expect(Object.keys(port).sort()).toEqual([...jobQueueMethods].sort())
    const { job } = await port.enqueue({ kind: 'k' })
    await expect(port.claim({ workerId: 'w', leaseMs: 1_000 })).resolves.toMatchObject({ id: job.id })
    await expect(port.claim({ workerId: 'w', leaseMs: -1 })).rejects.toThrow(RangeError)
  })
})
