import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Clock } from '../clock.js'
import type { JobQueue } from './job-queue.js'
import type { JobRecord } from './types.js'

const START = Date.parse('2026-03-01T12:00:00.000Z')
const LEASE = 10_000

/** Milliseconds of an ISO time, so the suite does not depend on how a backend formats its strings. */
function ms(iso: string | null): number {
  if (iso === null) throw new Error('expected a time, received null')
  return Date.parse(iso)
}

/**
 * Declares the behaviour every `JobQueue` backend must have, as vitest `describe`/`it` blocks written against the
 * port only. `open` gets the suite's clock (a fake one it moves by hand) and returns a fresh, empty, migrated queue;
 * `close` runs after each test.
 *
 * @example
 * ```ts
 * describeJobQueueContract('sqlite in memory', async (now) => {
 *   const db = openDatabase(':memory:')
 *   runMigrations(db, jobsMigrations)
 *   return { queue: asyncPort(new SqliteJobQueue(db, now), jobQueueMethods), close: async () => void db.close() }
 * })
 * ```
 */
export function describeJobQueueContract(name: string, open: (now: Clock) => Promise<{ queue: JobQueue; close(): Promise<void> }>): void {
  describe(`JobQueue contract: ${name}`, () => {
    let current = new Date(START)
    const now: Clock = () => new Date(current.getTime())
    const advance = (by: number): void => {
      current = new Date(current.getTime() + by)
    }
    let queue: JobQueue
    let close: () => Promise<void>

    beforeEach(async () => {
      current = new Date(START)
      ;({ queue, close } = await open(now))
    })
    afterEach(async () => {
      await close()
    })

    /** Claims, failing the test when nothing is due. */
    async function claimed(workerId = 'w1', leaseMs = LEASE, kinds?: string[]): Promise<JobRecord> {
      const job = await queue.claim({ workerId, leaseMs, ...(kinds ? { kinds } : {}) })
      if (!job) throw new Error(`expected ${workerId} to claim a job`)
      return job
    }

    describe('enqueue', () => {
      it('queues a pending job with the defaults, readable by id', async () => {
        const { job, created } = await queue.enqueue({ kind: 'mail.send', payload: { to: 'a@b.c', n: [1, 2] } })
        expect(created).toBe(true)
        expect(job).toMatchObject({
          kind: 'mail.send',
          payload: { to: 'a@b.c', n: [1, 2] },
          state: 'pending',
          attempts: 0,
          maxAttempts: 5,
          dedupeKey: null,
          leaseOwner: null,
          leaseExpiresAt: null,
          lastError: null,
          finishedAt: null,
        })
        expect(ms(job.runAt)).toBe(START)
        expect(ms(job.createdAt)).toBe(START)
        expect(ms(job.updatedAt)).toBe(START)
        expect(await queue.get(job.id)).toEqual(job)
        expect(await queue.get('job_missing')).toBeUndefined()
      })

      it('keeps runAt and maxAttempts as given, and stores a missing payload as null', async () => {
        const { job } = await queue.enqueue({ kind: 'later', runAt: new Date(START + 60_000), maxAttempts: 2 })
        expect(ms(job.runAt)).toBe(START + 60_000)
        expect(job.maxAttempts).toBe(2)
        expect(job.payload).toBeNull()
      })

      it('gives every job its own id when no dedupe key is given', async () => {
        const jobs = await Promise.all([1, 2, 3].map((n) => queue.enqueue({ kind: 'same', payload: { n } })))
        expect(jobs.every((j) => j.created)).toBe(true)
        expect(new Set(jobs.map((j) => j.job.id)).size).toBe(3)
      })

      it('returns the live job of the kind with the same dedupe key, pending or running', async () => {
        const first = await queue.enqueue({ kind: 'tables.import', payload: { v: 1 }, dedupeKey: 'tj_1' })
        const again = await queue.enqueue({ kind: 'tables.import', payload: { v: 2 }, dedupeKey: 'tj_1', maxAttempts: 9 })
        expect(again.created).toBe(false)
        expect(again.job).toEqual(first.job)

        const otherKind = await queue.enqueue({ kind: 'tables.export', dedupeKey: 'tj_1' })
        expect(otherKind.created).toBe(true)
        const otherKey = await queue.enqueue({ kind: 'tables.import', dedupeKey: 'tj_2' })
        expect(otherKey.created).toBe(true)

        const running = await claimed('w1', LEASE, ['tables.import'])
        expect(running.id).toBe(first.job.id)
        const whileRunning = await queue.enqueue({ kind: 'tables.import', dedupeKey: 'tj_1' })
        expect(whileRunning).toMatchObject({ created: false, job: { id: first.job.id, state: 'running', payload: { v: 1 } } })
      })

      it('queues a new job with the key once the previous one completed or went dead', async () => {
        const first = await queue.enqueue({ kind: 'sync', dedupeKey: 'k' })
        await claimed()
        expect(await queue.complete(first.job.id, 'w1')).toBe(true)
        const second = await queue.enqueue({ kind: 'sync', dedupeKey: 'k' })
        expect(second.created).toBe(true)
        expect(second.job.id).not.toBe(first.job.id)

        await claimed()
        await queue.fail(second.job.id, 'w1', { error: 'bad input', retry: false })
        const third = await queue.enqueue({ kind: 'sync', dedupeKey: 'k' })
        expect(third.created).toBe(true)
        expect(new Set([first.job.id, second.job.id, third.job.id]).size).toBe(3)
        expect(await queue.list({ kind: 'sync' })).toHaveLength(3)
      })

      it('creates one job when the same dedupe key is queued many times at once', async () => {
        const results = await Promise.all(Array.from({ length: 8 }, () => queue.enqueue({ kind: 'burst', dedupeKey: 'once' })))
        expect(results.filter((r) => r.created)).toHaveLength(1)
        expect(new Set(results.map((r) => r.job.id)).size).toBe(1)
        expect(await queue.list({ kind: 'burst' })).toHaveLength(1)
      })
    })

    describe('claim', () => {
      it('returns undefined when nothing is due', async () => {
        expect(await queue.claim({ workerId: 'w1', leaseMs: LEASE })).toBeUndefined()
        await queue.enqueue({ kind: 'later', runAt: new Date(START + 5_000) })
        expect(await queue.claim({ workerId: 'w1', leaseMs: LEASE })).toBeUndefined()
        advance(5_000)
        expect((await claimed()).kind).toBe('later')
      })

      it('takes the job under a lease: running, owner, expiry and the attempt counted', async () => {
        const { job } = await queue.enqueue({ kind: 'k' })
        advance(250)
        const claim = await claimed('host:1:0', 3_000)
        expect(claim).toMatchObject({ id: job.id, state: 'running', attempts: 1, leaseOwner: 'host:1:0' })
        expect(ms(claim.leaseExpiresAt)).toBe(START + 250 + 3_000)
        expect(ms(claim.updatedAt)).toBe(START + 250)
        expect(await queue.get(job.id)).toEqual(claim)
      })

      it('claims by runAt first, then in creation order', async () => {
        const late = await queue.enqueue({ kind: 'k', payload: 'late', runAt: new Date(START + 2_000) })
        const a = await queue.enqueue({ kind: 'k', payload: 'a' })
        const b = await queue.enqueue({ kind: 'k', payload: 'b' })
        const early = await queue.enqueue({ kind: 'k', payload: 'early', runAt: new Date(START - 1_000) })
        const c = await queue.enqueue({ kind: 'k', payload: 'c' })
        advance(2_000)
        const order: string[] = []
        for (let job = await queue.claim({ workerId: 'w', leaseMs: LEASE }); job; job = await queue.claim({ workerId: 'w', leaseMs: LEASE })) {
          order.push(job.id)
        }
        expect(order).toEqual([early.job.id, a.job.id, b.job.id, c.job.id, late.job.id])
      })

      it('claims only the kinds asked for', async () => {
        const mail = await queue.enqueue({ kind: 'mail' })
        const sms = await queue.enqueue({ kind: 'sms' })
        expect(await queue.claim({ workerId: 'w', leaseMs: LEASE, kinds: ['push'] })).toBeUndefined()
        expect((await claimed('w', LEASE, ['sms', 'push'])).id).toBe(sms.job.id)
        expect(await queue.claim({ workerId: 'w', leaseMs: LEASE, kinds: ['sms'] })).toBeUndefined()
        expect((await claimed('w', LEASE)).id).toBe(mail.job.id)
      })

      it('passes over the jobs of the bots named in skipBots, never a job without a botId (decision 1463)', async () => {
        const greedy = await queue.enqueue({ kind: 'k', payload: { botId: 'bot_greedy', n: 1 } })
        const sweep = await queue.enqueue({ kind: 'k', payload: { n: 2 } })
        const other = await queue.enqueue({ kind: 'k', payload: { botId: 'bot_other' } })
        const plain = await queue.enqueue({ kind: 'k', payload: 7 })
        const skip = { workerId: 'w', leaseMs: LEASE, skipBots: ['bot_greedy'] }
        expect((await queue.claim(skip))?.id).toBe(sweep.job.id)
        expect((await queue.claim(skip))?.id).toBe(other.job.id)
        expect((await queue.claim(skip))?.id).toBe(plain.job.id)
        expect(await queue.claim(skip)).toBeUndefined()
        expect((await queue.claim({ workerId: 'w', leaseMs: LEASE, skipBots: [] }))?.id).toBe(greedy.job.id)
      })

      it('never gives one job to two workers claiming at once', async () => {
        for (let i = 0; i < 8; i++) await queue.enqueue({ kind: 'k', payload: i })
        const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => queue.claim({ workerId: `w${i}`, leaseMs: LEASE })))
        const got = claims.filter((job): job is JobRecord => job !== undefined)
        expect(got).toHaveLength(8)
        expect(new Set(got.map((job) => job.id)).size).toBe(8)
        for (const job of got) expect((await queue.get(job.id))?.leaseOwner).toBe(job.leaseOwner)
      })

      it('claims a running job again once its lease expired, counting the attempt', async () => {
        const { job } = await queue.enqueue({ kind: 'k' })
        await claimed('w1', 1_000)
        advance(999)
        expect(await queue.claim({ workerId: 'w2', leaseMs: 1_000 })).toBeUndefined()
        advance(1)
        const again = await claimed('w2', 1_000)
        expect(again).toMatchObject({ id: job.id, state: 'running', attempts: 2, leaseOwner: 'w2' })
        expect(ms(again.leaseExpiresAt)).toBe(START + 2_000)
      })

      it('buries a job whose lease expired on its last attempt instead of claiming it again', async () => {
        const { job } = await queue.enqueue({ kind: 'k', maxAttempts: 1 })
        await claimed('w1', 1_000)
        advance(1_000)
        expect(await queue.claim({ workerId: 'w2', leaseMs: 1_000 })).toBeUndefined()
        const dead = await queue.get(job.id)
        expect(dead).toMatchObject({ state: 'dead', attempts: 1, leaseOwner: null, leaseExpiresAt: null })
        expect(dead?.lastError).toMatch(/lease/)
        expect(ms(dead!.finishedAt)).toBe(START + 1_000)
      })
    })

    describe('leases', () => {
      it('heartbeat pushes the expiry to now + leaseMs, only for the holder', async () => {
        const { job } = await queue.enqueue({ kind: 'k' })
        await claimed('w1', 1_000)
        advance(800)
        expect(await queue.heartbeat(job.id, 'w2', 1_000)).toBe(false)
        expect(await queue.heartbeat(job.id, 'w1', 1_000)).toBe(true)
        expect(ms((await queue.get(job.id))!.leaseExpiresAt)).toBe(START + 1_800)
        advance(800) // past the first expiry, before the renewed one
        expect(await queue.claim({ workerId: 'w2', leaseMs: 1_000 })).toBeUndefined()
        advance(200)
        expect((await claimed('w2', 1_000)).attempts).toBe(2)
      })

      it('tells a worker whose expired lease was claimed elsewhere that it lost the job', async () => {
        const { job } = await queue.enqueue({ kind: 'k' })
        await claimed('stale', 1_000)
        advance(1_500)
        await claimed('fresh', 1_000)
        expect(await queue.heartbeat(job.id, 'stale', 1_000)).toBe(false)
        expect(await queue.complete(job.id, 'stale')).toBe(false)
        expect(await queue.fail(job.id, 'stale', { error: 'late' })).toBeUndefined()
        expect(await queue.get(job.id)).toMatchObject({ state: 'running', leaseOwner: 'fresh', lastError: null })
        expect(await queue.complete(job.id, 'fresh')).toBe(true)
      })

      it('lets the holder finish after its lease expired while nobody claimed the job', async () => {
        const { job } = await queue.enqueue({ kind: 'k' })
        await claimed('w1', 1_000)
        advance(5_000)
        expect(await queue.complete(job.id, 'w1')).toBe(true)
      })
    })

    describe('complete', () => {
      it('finishes the job for good', async () => {
        const { job } = await queue.enqueue({ kind: 'k' })
        await claimed()
        advance(700)
        expect(await queue.complete(job.id, 'w1')).toBe(true)
        const done = await queue.get(job.id)
        expect(done).toMatchObject({ state: 'completed', attempts: 1, leaseOwner: null, leaseExpiresAt: null })
        expect(ms(done!.finishedAt)).toBe(START + 700)
        expect(ms(done!.updatedAt)).toBe(START + 700)
        expect(await queue.complete(job.id, 'w1')).toBe(false)
        expect(await queue.heartbeat(job.id, 'w1', LEASE)).toBe(false)
        advance(LEASE * 10)
        expect(await queue.claim({ workerId: 'w2', leaseMs: LEASE })).toBeUndefined()
      })

      it('refuses a job that was never claimed, and an unknown id', async () => {
        const { job } = await queue.enqueue({ kind: 'k' })
        expect(await queue.complete(job.id, 'w1')).toBe(false)
        expect(await queue.complete('job_missing', 'w1')).toBe(false)
        expect(await queue.fail(job.id, 'w1', { error: 'x' })).toBeUndefined()
        expect((await queue.get(job.id))?.state).toBe('pending')
      })
    })

    describe('fail', () => {
      it('puts the job back with runAt pushed back 1 s, 2 s, 4 s ... after each failed attempt', async () => {
        const { job } = await queue.enqueue({ kind: 'k', maxAttempts: 4 })
        for (const [attempt, delay] of [
          [1, 1_000],
          [2, 2_000],
          [3, 4_000],
        ] as const) {
          const claim = await claimed()
          expect(claim.attempts).toBe(attempt)
          advance(100)
          const failed = await queue.fail(job.id, 'w1', { error: `attempt ${attempt} failed` })
          expect(failed).toMatchObject({ state: 'pending', attempts: attempt, lastError: `attempt ${attempt} failed`, leaseOwner: null, leaseExpiresAt: null, finishedAt: null })
          expect(ms(failed!.runAt) - current.getTime()).toBe(delay)
          expect(await queue.get(job.id)).toEqual(failed)
          advance(delay - 1)
          expect(await queue.claim({ workerId: 'w1', leaseMs: LEASE })).toBeUndefined()
          advance(1)
        }
      })

      it('caps the backoff at 5 minutes', async () => {
        const { job } = await queue.enqueue({ kind: 'k', maxAttempts: 12 })
        const delays: number[] = []
        for (let attempt = 1; attempt <= 10; attempt++) {
          await claimed()
          const failed = await queue.fail(job.id, 'w1', { error: 'again' })
          delays.push(ms(failed!.runAt) - current.getTime())
          current = new Date(ms(failed!.runAt))
        }
        expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 300_000])
      })

      it('buries the job after maxAttempts failed attempts', async () => {
        const { job } = await queue.enqueue({ kind: 'k', maxAttempts: 2 })
        await claimed()
        expect((await queue.fail(job.id, 'w1', { error: 'first' }))?.state).toBe('pending')
        advance(1_000)
        await claimed()
        advance(50)
        const dead = await queue.fail(job.id, 'w1', { error: 'second' })
        expect(dead).toMatchObject({ state: 'dead', attempts: 2, lastError: 'second', leaseOwner: null, leaseExpiresAt: null })
        expect(ms(dead!.finishedAt)).toBe(current.getTime())
        advance(60 * 60_000)
        expect(await queue.claim({ workerId: 'w1', leaseMs: LEASE })).toBeUndefined()
        expect((await queue.list({ state: 'dead' })).map((j) => j.id)).toEqual([job.id])
      })

      it('buries the job at once with retry: false', async () => {
        const { job } = await queue.enqueue({ kind: 'k' })
        await claimed()
        const dead = await queue.fail(job.id, 'w1', { error: 'bad CSV header', retry: false })
        expect(dead).toMatchObject({ state: 'dead', attempts: 1, maxAttempts: 5, lastError: 'bad CSV header' })
        expect(ms(dead!.finishedAt)).toBe(START)
      })
    })

    describe('list', () => {
      it('filters by state and kind, oldest first', async () => {
        const a = await queue.enqueue({ kind: 'mail', payload: 'a' })
        const b = await queue.enqueue({ kind: 'sms', payload: 'b' })
        const c = await queue.enqueue({ kind: 'mail', payload: 'c', runAt: new Date(START - 60_000) })
        const d = await queue.enqueue({ kind: 'mail', payload: 'd' })
        await claimed('w1', LEASE, ['sms'])
        const ids = (jobs: JobRecord[]): string[] => jobs.map((job) => job.id)
        expect(ids(await queue.list())).toEqual([a.job.id, b.job.id, c.job.id, d.job.id])
        expect(ids(await queue.list({ kind: 'mail' }))).toEqual([a.job.id, c.job.id, d.job.id])
        expect(ids(await queue.list({ state: 'running' }))).toEqual([b.job.id])
        expect(ids(await queue.list({ state: 'pending', kind: 'mail', limit: 2 }))).toEqual([a.job.id, c.job.id])
        expect(await queue.list({ state: 'completed' })).toEqual([])
        expect(await queue.list({ kind: 'push' })).toEqual([])
      })

      it('returns 50 jobs unless told otherwise', async () => {
        for (let i = 0; i < 55; i++) await queue.enqueue({ kind: 'k', payload: i })
        const page = await queue.list()
        expect(page).toHaveLength(50)
        expect(page.map((job) => job.payload)).toEqual(Array.from({ length: 50 }, (_, i) => i))
        expect(await queue.list({ limit: 55 })).toHaveLength(55)
      })
    })

    describe('nextDueAt', () => {
      it('is the earliest runAt of a pending job or lease expiry of a running one', async () => {
        expect(await queue.nextDueAt()).toBeUndefined()
        await queue.enqueue({ kind: 'mail', runAt: new Date(START + 60_000) })
        expect((await queue.nextDueAt())?.getTime()).toBe(START + 60_000)
        await queue.enqueue({ kind: 'sms' })
        await claimed('w1', 5_000, ['sms'])
        expect((await queue.nextDueAt())?.getTime()).toBe(START + 5_000)
        await queue.enqueue({ kind: 'push', runAt: new Date(START - 1_000) })
        // Already due: a past time means "now".
        expect((await queue.nextDueAt())?.getTime()).toBe(START - 1_000)
      })

      it('looks only at the kinds asked for, and ignores finished jobs', async () => {
        await queue.enqueue({ kind: 'mail', runAt: new Date(START + 60_000) })
        const { job } = await queue.enqueue({ kind: 'sms' })
        expect((await queue.nextDueAt(['mail']))?.getTime()).toBe(START + 60_000)
        expect((await queue.nextDueAt(['sms', 'push']))?.getTime()).toBe(START)
        expect(await queue.nextDueAt(['push'])).toBeUndefined()
        await claimed('w1', LEASE, ['sms'])
        await queue.complete(job.id, 'w1')
        expect(await queue.nextDueAt(['sms'])).toBeUndefined()
        expect((await queue.nextDueAt())?.getTime()).toBe(START + 60_000)
      })
    })
  })
}
