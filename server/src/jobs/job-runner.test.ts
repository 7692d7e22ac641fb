import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Clock } from 'botshelf/api'
import type { JobQueue, JobRecord } from '../store/jobs/index.js'
import { asyncPort } from '../store/sqlite/guarded-port.js'
import { jobsMigrations } from '../store/sqlite/jobs/migrations.js'
import { runMigrations } from '../store/sqlite/migrations.js'
import { openDatabase } from '../store/sqlite/connect.js'
import { jobQueueMethods, SqliteJobQueue } from '../store/sqlite/jobs/job-queue.js'
import { z } from 'zod'
import { defineJob, type JobDefinition } from './job-definition.js'
import { enqueueJob } from './enqueue-job.js'
import { JobRunner } from './job-runner.js'
import type { JobLogLevel, JobRunnerOptions } from './job-runner-options.js'
import { PermanentJobError } from './permanent-job-error.js'

interface Line {
  level: JobLogLevel
  message: string
  fields: Record<string, unknown>
}

/** A promise resolved from outside. */
function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void
  const promise = new Promise<void>((resolve) => (open = resolve))
  return { promise, open }
}

// The runner waits on timers only (its poll, lease renewals, the shutdown grace, a due job): fake ones drive them,
// so "a few polls later" is exact whatever the machine's load. Date follows the fake time (the real-clock test);
// setImmediate stays real, the turn the runner takes between two claims.
const faked = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] as const

/** Lets `ms` of fake time pass, running the runner's timers and the promise work they start. */
const pass = (ms: number): Promise<unknown> => vi.advanceTimersByTimeAsync(ms)

/** A real turn of the event loop (the runner's claims and the store's answers settle in it). */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/**
 * Until `check` holds: 5 ms of fake time and a real turn per look (`stepMs: 0`: turns only, no timer fires), for at
 * most `ms` of real time.
 */
async function waitFor(check: () => boolean | Promise<boolean>, what: string, ms = 5_000, stepMs = 5): Promise<void> {
  const giveUp = performance.now() + ms
  while (!(await check())) {
    if (performance.now() > giveUp) throw new Error(`timed out waiting for ${what}`)
    if (stepMs > 0) await pass(stepMs)
    await turn()
  }
}

const cleanup: Array<() => Promise<void> | void> = []
beforeEach(() => {
  vi.useFakeTimers({ toFake: [...faked] })
})
afterEach(async () => {
  try {
    let finished = false
    const steps = (async () => {
      for (const step of cleanup.splice(0).reverse()) await step()
    })().finally(() => (finished = true))
    // stop() waits for a running handler up to its grace, on the fake clock: let that time pass.
    for (let i = 0; i < 200 && !finished; i++) await pass(100)
    await steps
  } finally {
    vi.useRealTimers()
  }
})

/** A real in-memory SQLite queue on a fake clock, and a runner factory whose runners are stopped after the test. */
function setup(options: { realClock?: boolean } = {}) {
  let current = Date.parse('2026-05-01T08:00:00.000Z')
  const now: Clock = options.realClock ? () => new Date() : () => new Date(current)
  const db = openDatabase(':memory:')
  runMigrations(db, jobsMigrations)
  const store = new SqliteJobQueue(db, now)
  const queue: JobQueue = asyncPort(store, jobQueueMethods)
  const lines: Line[] = []
  cleanup.push(() => void db.close())
  const runner = (options: Omit<JobRunnerOptions, 'queue'>): JobRunner => {
    const created = new JobRunner({
      queue,
      now,
      pollMs: 20,
      workerName: 'test',
      logger: { log: (level, message, fields) => lines.push({ level, message, fields: fields ?? {} }) },
      ...options,
    })
    cleanup.push(() => created.stop())
    return created
  }
  const job = (id: string): JobRecord => {
    const found = store.get(id)
    if (!found) throw new Error(`no job ${id}`)
    return found
  }
  return { store, queue, runner, job, lines, advance: (ms: number) => void (current += ms) }
}

describe('JobRunner', () => {
  it('never runs more than `concurrency` handlers at once, one slot id each', async () => {
    const { store, runner, job } = setup()
    const gates = new Map<number, ReturnType<typeof gate>>()
    const owners: string[] = []
    let active = 0
    let most = 0
    const work = defineJob<{ n: number }>({
      kind: 'work',
      payload: z.any(),
      async run({ job: record, payload }) {
        active++
        most = Math.max(most, active)
        owners.push(record.leaseOwner ?? '')
        const g = gate()
        gates.set(payload.n, g)
        await g.promise
        active--
      },
    })
    const ids = [0, 1, 2, 3, 4].map((n) => store.enqueue({ kind: 'work', payload: { n } }).job.id)
    runner({ jobs: [work], concurrency: 2 }).start()

    await waitFor(() => gates.size === 2, 'two handlers to start')
    await pass(100)
    expect(gates.size).toBe(2)
    expect(store.list({ state: 'pending' })).toHaveLength(3)
    expect(owners.sort()).toEqual([`test:${process.pid}:0`, `test:${process.pid}:1`])

    gates.get(0)!.open()
    await waitFor(() => gates.size === 3, 'a third handler once a slot frees')
    expect(job(ids[0]!).state).toBe('completed')

    for (let n = 1; n < 5; n++) {
      await waitFor(() => gates.has(n), `handler ${n}`)
      gates.get(n)!.open()
    }
    await waitFor(() => ids.every((id) => job(id).state === 'completed'), 'every job to complete')
    expect(most).toBe(2)
  })

  // Finding 3 of issue 28 (decision 1463): one bot's long imports held both slots and every other bot waited.
  it("keeps a slot for other bots: one bot's jobs hold at most concurrency - 1 slots; jobs without a bot are not counted", async () => {
    const { store, runner } = setup()
    const gates = new Map<string, ReturnType<typeof gate>>()
    const work = defineJob<{ name: string; botId?: string }>({
      kind: 'work',
      payload: z.any(),
      async run({ payload }) {
        const g = gate()
        gates.set(payload.name, g)
        await g.promise
      },
    })
    // The greedy bot queued first: without the share it would take both slots, then the third.
    for (const name of ['greedy-1', 'greedy-2', 'greedy-3']) store.enqueue({ kind: 'work', payload: { name, botId: 'bot_greedy' } })
    store.enqueue({ kind: 'work', payload: { name: 'other-1', botId: 'bot_other' } })
    store.enqueue({ kind: 'work', payload: { name: 'sweep' } })
    runner({ jobs: [work], concurrency: 2 }).start()

    await waitFor(() => gates.size === 2, 'both slots busy')
    expect([...gates.keys()].sort()).toEqual(['greedy-1', 'other-1'])
    gates.get('other-1')!.open()
    // The freed slot goes to the job without a bot (queued before greedy's next), never to a second greedy job.
    await waitFor(() => gates.has('sweep'), 'the sweep to start')
    expect(gates.has('greedy-2')).toBe(false)
    gates.get('sweep')!.open()
    gates.get('greedy-1')!.open()
    await waitFor(() => gates.has('greedy-2'), 'greedy-2 once greedy-1 is done')
    expect(store.list({ state: 'running' })).toHaveLength(1)
    gates.get('greedy-2')!.open()
    await waitFor(() => gates.has('greedy-3'), 'greedy-3')
    gates.get('greedy-3')!.open()
    await waitFor(() => store.list({ state: 'completed' }).length === 5, 'every job to complete')
  })

  it('retries a failing job with backoff until it succeeds, and logs each step', async () => {
    const { store, runner, job, lines, advance } = setup()
    const attempts: number[] = []
    const flaky: JobDefinition = {
      kind: 'flaky',
      payload: z.any(),
      async run({ attempt }) {
        attempts.push(attempt)
        if (attempt < 3) throw new Error(`flaky ${attempt}`)
      },
    }
    const { id } = store.enqueue({ kind: 'flaky' }).job
    runner({ jobs: [flaky] }).start()

    await waitFor(() => job(id).attempts === 1 && job(id).state === 'pending', 'the first failure')
    expect(job(id).lastError).toBe('flaky 1')
    await pass(60) // three polls: the backoff holds it back
    expect(attempts).toEqual([1])
    advance(1_000)
    await waitFor(() => job(id).attempts === 2 && job(id).state === 'pending', 'the second failure')
    advance(2_000)
    await waitFor(() => job(id).state === 'completed', 'the third attempt to complete')
    expect(job(id).attempts).toBe(3)
    expect(attempts).toEqual([1, 2, 3])

    const summary = lines.map((line) => `${line.level} ${line.message} ${String(line.fields.attempt)}`)
    expect(summary).toEqual([
      'debug job claimed 1',
      'warn job failed 1',
      'debug job claimed 2',
      'warn job failed 2',
      'debug job claimed 3',
      'info job completed 3',
    ])
    expect(lines[1]!.fields).toMatchObject({ jobId: id, kind: 'flaky', error: 'flaky 1', permanent: false, state: 'pending' })
  })

  it('reads the payload with the definition\'s schema, and buries a job whose payload does not fit it', async () => {
    const { store, runner, job } = setup()
    const seen: unknown[] = []
    const typed = defineJob({
      kind: 'typed',
      payload: z.object({ n: z.number() }),
      async run({ payload }) {
        seen.push(payload.n)
      },
    })
    const good = (await enqueueJob(asyncPort(store, jobQueueMethods), typed, { payload: { n: 7 } })).job.id
    const bad = store.enqueue({ kind: 'typed', payload: { n: 'seven' } }).job.id
    runner({ jobs: [typed] }).start()
    await waitFor(() => job(good).state === 'completed' && job(bad).state === 'dead', 'both jobs to end')
    expect(seen).toEqual([7])
    expect(job(bad)).toMatchObject({ attempts: 1 })
    expect(job(bad).lastError).toMatch(/^the payload of a typed job does not fit its schema: n: /)
    await expect(enqueueJob(asyncPort(store, jobQueueMethods), typed, { payload: { n: 'x' as unknown as number } })).rejects.toThrow()
  })

  it('buries a job whose handler throws PermanentJobError, without retrying', async () => {
    const { store, runner, job, advance } = setup()
    let calls = 0
    const strict = defineJob({
      kind: 'strict',
      payload: z.any(),
      async run() {
        calls++
        throw new PermanentJobError('bad CSV header')
      },
    })
    const { id } = store.enqueue({ kind: 'strict' }).job
    runner({ jobs: [strict] }).start()
    await waitFor(() => job(id).state === 'dead', 'the job to go dead')
    expect(job(id)).toMatchObject({ attempts: 1, lastError: 'bad CSV header' })
    advance(60 * 60_000)
    await pass(60)
    expect(calls).toBe(1)
  })

  it('aborts the handler signal when its lease was taken by another worker, and records nothing', async () => {
    const { store, runner, job, lines, advance } = setup()
    const started = gate()
    let reason: unknown
    const slow = defineJob({
      kind: 'slow',
      payload: z.any(),
      async run({ signal }) {
        started.open()
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
        reason = signal.reason
        throw signal.reason
      },
    })
    const { id } = store.enqueue({ kind: 'slow' }).job
    runner({ jobs: [slow], leaseMs: 150 }).start()
    await started.promise

    // The lease runs out (the process looked frozen) and another worker takes the job, in one synchronous step.
    advance(10 * 60_000)
    expect(store.claim({ workerId: 'elsewhere', leaseMs: 60_000 })?.id).toBe(id)

    await waitFor(() => reason !== undefined, 'the signal to abort')
    expect(String(reason)).toMatch(/lost the lease/)
    await pass(50)
    expect(job(id)).toMatchObject({ state: 'running', attempts: 2, leaseOwner: 'elsewhere', lastError: null })
    expect(lines.some((line) => line.level === 'warn' && line.message.includes('lease lost'))).toBe(true)
  })

  it('stop() stops claiming and waits for the running handler to finish and be recorded', async () => {
    const { store, runner, job } = setup()
    const started: string[] = []
    const steady = defineJob({
      kind: 'steady',
      payload: z.any(),
      async run({ job: record }) {
        started.push(record.id)
        await new Promise((resolve) => setTimeout(resolve, 150))
      },
    })
    const first = store.enqueue({ kind: 'steady' }).job.id
    const second = store.enqueue({ kind: 'steady' }).job.id
    const worker = runner({ jobs: [steady], concurrency: 1 })
    worker.start()
    await waitFor(() => started.length === 1, 'the first handler')

    let stopped = false
    const stopping = worker.stop().then(() => (stopped = true))
    await pass(100)
    expect(stopped).toBe(false) // the handler still runs: stop() waits for it
    await pass(50)
    await stopping
    expect(job(first).state).toBe('completed')

    worker.wake()
    await pass(100)
    expect(started).toEqual([first])
    expect(job(second)).toMatchObject({ state: 'pending', attempts: 0 })
    expect(() => worker.start()).toThrow(/stopped/)
  })

  it('stop() gives up after the grace: aborts the signal and leaves the job to lease expiry', async () => {
    const { store, runner, job } = setup()
    const started = gate()
    let aborted = false
    const stuck = defineJob({
      kind: 'stuck',
      payload: z.any(),
      async run({ signal }) {
        started.open()
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
        aborted = true
      },
    })
    const { id } = store.enqueue({ kind: 'stuck' }).job
    const worker = runner({ jobs: [stuck], shutdownGraceMs: 100 })
    worker.start()
    await started.promise

    let stopped = false
    const stopping = worker.stop().then(() => (stopped = true))
    await pass(99)
    expect(stopped).toBe(false)
    expect(aborted).toBe(false)
    await pass(1)
    await stopping
    expect(aborted).toBe(true)
    await pass(20)
    // Not completed although the handler resolved: the outcome after the grace is not recorded.
    expect(job(id)).toMatchObject({ state: 'running', attempts: 1, lastError: null, leaseOwner: `test:${process.pid}:0` })
  })

  it('wake() starts a job at once instead of at the next poll', async () => {
    const { store, runner, job } = setup()
    const quick = defineJob({ kind: 'quick', payload: z.any(), run: async () => {} })
    const worker = runner({ jobs: [quick], pollMs: 60_000 })
    worker.start()
    await pass(50) // the first look found nothing; the next poll is a minute away

    const { id } = store.enqueue({ kind: 'quick' }).job
    await pass(150)
    expect(job(id).state).toBe('pending')
    const woken = Date.now()
    worker.wake()
    // Real turns only: no timer fires, so the wake alone runs the job.
    await waitFor(() => job(id).state === 'completed', 'the woken runner to run the job', 2_000, 0)
    expect(Date.now()).toBe(woken)
  })

  it('looks again when a known job falls due, sooner than the poll', async () => {
    const { store, runner, job } = setup({ realClock: true })
    const quick = defineJob({ kind: 'quick', payload: z.any(), run: async () => {} })
    const { id } = store.enqueue({ kind: 'quick', runAt: new Date(Date.now() + 200) }).job
    const started = Date.now()
    runner({ jobs: [quick], pollMs: 60_000 }).start()
    await pass(199)
    expect(job(id).state).toBe('pending')
    await waitFor(() => job(id).state === 'completed', 'the scheduled job', 3_000)
    expect(Date.now() - started).toBeGreaterThanOrEqual(200)
    expect(Date.now() - started).toBeLessThan(60_000)
  })

  it('takes a turn of the event loop between two claims', async () => {
    const { store, runner } = setup()
    let claimedWhenTurned = -1
    let running = 0
    const hang = defineJob({
      kind: 'hang',
      payload: z.any(),
      async run({ signal }) {
        running++
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
      },
    })
    for (let i = 0; i < 10; i++) store.enqueue({ kind: 'hang' })
    const worker = runner({ jobs: [hang], concurrency: 10, shutdownGraceMs: 0 })
    worker.start()
    setImmediate(() => (claimedWhenTurned = running))
    await waitFor(() => running === 10, 'all ten handlers')
    expect(claimedWhenTurned).toBeGreaterThanOrEqual(0)
    expect(claimedWhenTurned).toBeLessThan(10)
  })

  it('claims only the kinds it has handlers for', async () => {
    const { store, runner, job } = setup()
    const mine = store.enqueue({ kind: 'mine' }).job.id
    const theirs = store.enqueue({ kind: 'theirs' }).job.id
    runner({ jobs: [defineJob({ kind: 'mine', payload: z.any(), run: async () => {} })] }).start()
    await waitFor(() => job(mine).state === 'completed', 'its own job')
    await pass(60)
    expect(job(theirs)).toMatchObject({ state: 'pending', attempts: 0 })
  })

  it('refuses options it cannot honour', () => {
    const { queue } = setup()
    const a = defineJob({ kind: 'a', payload: z.any(), run: async () => {} })
    expect(() => new JobRunner({ queue, jobs: [a, { ...a }] })).toThrow(/two handlers/)
    expect(() => new JobRunner({ queue, jobs: [a], concurrency: 0 })).toThrow(/concurrency/)
    expect(() => new JobRunner({ queue, jobs: [a], concurrency: 1.5 })).toThrow(/concurrency/)
    expect(() => new JobRunner({ queue, jobs: [a], leaseMs: -1 })).toThrow(/leaseMs/)
    expect(() => new JobRunner({ queue, jobs: [a], shutdownGraceMs: -1 })).toThrow(/shutdownGraceMs/)
    expect(() => defineJob({ kind: '', payload: z.any(), run: async () => {} })).toThrow(/kind/)
  })
})
