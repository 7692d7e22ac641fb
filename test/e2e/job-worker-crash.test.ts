import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { lineFrom } from '../helpers/child-lines.js'
import { z } from 'zod'
import { JobRunner, defineJob } from '../../server/src/jobs/index.js'
import { systemClock } from '../../server/src/store/clock.js'
import { asyncPort } from '../../server/src/store/sqlite/guarded-port.js'
import { jobsMigrations } from '../../server/src/store/sqlite/jobs/migrations.js'
import { runMigrations } from '../../server/src/store/sqlite/migrations.js'
import { openDatabase } from '../../server/src/store/sqlite/connect.js'
import { SqliteJobQueue, jobQueueMethods } from '../../server/src/store/sqlite/jobs/job-queue.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const workerScript = fileURLToPath(new URL('./fixtures/hanging-job-worker.ts', import.meta.url))
const LEASE_MS = 1_500

const cleanup: Array<() => Promise<unknown> | unknown> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await Promise.resolve(step()).catch(() => undefined)
})


/** Resolves with the signal or code the child ended with; rejects after `ms`. */
function exitOf(child: ChildProcessWithoutNullStreams, ms: number): Promise<string | number> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.signalCode ?? child.exitCode!)
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the worker did not exit within ${ms} ms`)), ms)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      resolve(signal ?? code ?? -1)
    })
  })
}

async function waitFor(check: () => boolean, what: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe('a job worker killed while it holds a job', () => {
  it('loses the job to another worker once its lease expires, which completes it on attempt 2', { timeout: 60_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'botshelf-job-crash-'))
    cleanup.push(() => rm(dir, { recursive: true, force: true }))
    const dbPath = join(dir, 'botshelf.db')
    const db = openDatabase(dbPath)
    cleanup.push(() => db.close())
    runMigrations(db, jobsMigrations)
    const store = new SqliteJobQueue(db, systemClock)
    const { job } = store.enqueue({ kind: 'crash.hang', payload: { report: 'q3' } })

    const child = spawn(process.execPath, ['--import', 'tsx', workerScript, dbPath, String(LEASE_MS)], { cwd: root, stdio: 'pipe' })
    cleanup.push(() => child.kill('SIGKILL'))
    const claimed = await lineFrom(child, /claimed (\S+) (\d+)\n/, 30_000, 'the worker')
    expect(claimed[1]).toBe(job.id)
    expect(claimed[2]).toBe('1')
    expect(store.get(job.id)).toMatchObject({ state: 'running', attempts: 1, leaseOwner: `crash-child:${child.pid}:0` })

    child.kill('SIGKILL')
    expect(await exitOf(child, 10_000)).toBe('SIGKILL')
    // The dead worker's last renewal is final now: nobody may take the job before this.
    const leaseEnd = Date.parse(store.get(job.id)!.leaseExpiresAt!)

    const runs: Array<{ attempt: number; at: number; payload: unknown }> = []
    const runner = new JobRunner({
      queue: asyncPort(store, jobQueueMethods),
      jobs: [
        defineJob({
          kind: 'crash.hang',
          payload: z.any(),
          async run({ attempt, payload }) {
            runs.push({ attempt, at: Date.now(), payload })
          },
        }),
      ],
      leaseMs: LEASE_MS,
      pollMs: 100,
      workerName: 'crash-parent',
    })
    cleanup.push(() => runner.stop())
    runner.start()

    await waitFor(() => store.get(job.id)?.state === 'completed', 'the second worker to complete the job', LEASE_MS + 15_000)
    expect(store.get(job.id)).toMatchObject({ state: 'completed', attempts: 2, lastError: null, leaseOwner: null })
    expect(runs).toHaveLength(1)
    expect(runs[0]).toMatchObject({ attempt: 2, payload: { report: 'q3' } })
    expect(runs[0]!.at).toBeGreaterThanOrEqual(leaseEnd)
  })
})
