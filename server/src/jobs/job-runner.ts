import { hostname } from 'node:os'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { systemClock, type Clock } from 'botshelf/api'
import type { JobQueue, JobRecord } from '../store/jobs/index.js'
import { readPayload, type JobDefinition } from './job-definition.js'
import type { JobLogLevel, JobRunnerLogger, JobRunnerOptions } from './job-runner-options.js'
import { PermanentJobError } from './permanent-job-error.js'

/** Shortest idle wait, so a job due "now" that another worker took first cannot make the loop spin. */
const MIN_IDLE_MS = 25

/** One job in a slot: its lease holder id, its abort controller and its lease renewal timer. */
interface RunningJob {
  readonly job: JobRecord
  readonly workerId: string
  readonly controller: AbortController
  renewal: ReturnType<typeof setInterval> | undefined
  renewing: boolean
  /** Set once the handler settled: a renewal answering after that is stale. */
  settled: boolean
  /** Set by `stop()` after the grace: the outcome is no longer recorded. */
  abandoned: boolean
  done: Promise<void>
}

function positive(name: string, value: number, integer = false): number {
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new RangeError(`JobRunner: ${name} must be a positive ${integer ? 'integer' : 'number'}, received ${String(value)}`)
  }
  return value
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * Runs queued jobs inside the server process: claims due jobs of its handlers' kinds, at most `concurrency` at
 * once, renews each lease every `leaseMs / 3` while the handler runs, then completes or fails the job (a
 * `PermanentJobError` buries it, anything else retries it with backoff). Claims are one quick store call each,
 * with a turn of the event loop between them. Idle, it looks again after `pollMs`, sooner when a known job falls
 * due, and at once on `wake()`. Once started it keeps the process alive, like a listening server, until `stop()`.
 *
 * @example
 * ```ts
 * const runner = new JobRunner({ queue: backend.jobs, jobs: [importTableJob], now: backend.now, logger })
 * runner.start()
 * await backend.jobs.enqueue({ kind: 'tables.import', payload: { tableJobId }, dedupeKey: tableJobId })
 * runner.wake()
 * // on shutdown
 * await runner.stop()
 * ```
 */
export class JobRunner<S = unknown> {
  private readonly queue: JobQueue
  private readonly handlers = new Map<string, JobDefinition<any, S>>()
  private readonly services: () => S
  private readonly kinds: string[]
  private readonly concurrency: number
  private readonly slotsPerBot: number
  private readonly leaseMs: number
  private readonly pollMs: number
  private readonly shutdownGraceMs: number
  private readonly logger: JobRunnerLogger | undefined
  private readonly now: Clock
  private readonly workerPrefix: string
  private readonly slots = new Map<number, RunningJob>()
  private state: 'idle' | 'started' | 'stopping' | 'stopped' = 'idle'
  private claiming = false
  private claimAgain = false
  private claimLoop: Promise<void> = Promise.resolve()
  private timer: ReturnType<typeof setTimeout> | undefined
  private stopped: Promise<void> | undefined

  /**
   * Checks the options; nothing runs before `start()`.
   *
   * @example
   * ```ts
   * new JobRunner({ queue: backend.jobs, jobs: [importTableJob, expireFilesJob(60_000)], concurrency: 4 })
   * ```
   */
  constructor(options: JobRunnerOptions<S>) {
    this.queue = options.queue
    this.services = options.services ?? (() => undefined as S)
    for (const definition of options.jobs) {
      if (this.handlers.has(definition.kind)) throw new RangeError(`JobRunner: two handlers for the job kind ${definition.kind}`)
      this.handlers.set(definition.kind, definition)
    }
    this.kinds = [...this.handlers.keys()]
    this.concurrency = positive('concurrency', options.concurrency ?? 2, true)
    this.slotsPerBot = positive('slotsPerBot', options.slotsPerBot ?? Math.max(1, this.concurrency - 1), true)
    this.leaseMs = positive('leaseMs', options.leaseMs ?? 30_000)
    this.pollMs = positive('pollMs', options.pollMs ?? 500)
    const grace = options.shutdownGraceMs ?? 10_000
    if (!Number.isFinite(grace) || grace < 0) throw new RangeError(`JobRunner: shutdownGraceMs must be 0 or more, received ${String(grace)}`)
    this.shutdownGraceMs = grace
    this.logger = options.logger
    this.now = options.now ?? systemClock
    this.workerPrefix = `${options.workerName ?? hostname()}:${process.pid}`
  }

  /**
   * Starts claiming (at once, then as described above). Calling it again while running does nothing; a stopped
   * runner cannot start again.
   *
   * @example
   * ```ts
   * runner.start()
   * ```
   */
  start(): void {
    if (this.state === 'started') return
    if (this.state !== 'idle') throw new Error('JobRunner: a stopped runner cannot start again; create a new one')
    this.state = 'started'
    this.kick()
  }

  /**
   * Looks for a due job now instead of at the next poll: call it after queueing a job in this process.
   * Does nothing unless started.
   *
   * @example
   * ```ts
   * await backend.jobs.enqueue({ kind: 'files.expire' })
   * runner.wake()
   * ```
   */
  wake(): void {
    this.kick()
  }

  /**
   * Stops claiming, waits up to `shutdownGraceMs` for running handlers to settle (recording their outcome), then
   * aborts the signals of those still running and resolves without recording them: their jobs are claimed again
   * once their leases expire. Calling it again returns the same promise.
   *
   * @example
   * ```ts
   * process.once('SIGTERM', () => void runner.stop().then(() => backend.close()))
   * ```
   */
  stop(): Promise<void> {
    this.stopped ??= this.shutDown()
    return this.stopped
  }

  private async shutDown(): Promise<void> {
    const wasStarted = this.state === 'started'
    this.state = 'stopping'
    clearTimeout(this.timer)
    if (wasStarted) {
      // A claim in flight may still hand us a job: it runs like the others, within the grace.
      await this.claimLoop
      const running = [...this.slots.values()]
      if (running.length > 0) {
        let graceTimer: ReturnType<typeof setTimeout> | undefined
        const graceOver = new Promise<void>((resolve) => (graceTimer = setTimeout(resolve, this.shutdownGraceMs)))
        await Promise.race([Promise.all(running.map((run) => run.done)), graceOver])
        clearTimeout(graceTimer)
        for (const run of this.slots.values()) this.abandon(run)
      }
    }
    this.state = 'stopped'
  }

  private kick(): void {
    if (this.state !== 'started') return
    if (this.claiming) {
      // The loop in flight looks once more before it sleeps: no wake is lost.
      this.claimAgain = true
      return
    }
    clearTimeout(this.timer)
    this.timer = undefined
    this.claiming = true
    this.claimLoop = this.claimWhileFree()
  }

  private async claimWhileFree(): Promise<void> {
    let idleMs: number | undefined
    try {
      idleMs = await this.fillSlots()
    } catch (error) {
      this.log('error', 'job claim failed', { error: messageOf(error) })
      idleMs = this.pollMs
    } finally {
      this.claiming = false
    }
    // Synchronous from here on, so a wake() cannot slip between the last look and the timer.
    if (this.state !== 'started') return
    if (this.claimAgain) {
      this.claimAgain = false
      this.kick()
    } else if (idleMs !== undefined) {
      this.timer = setTimeout(() => this.kick(), idleMs)
    }
  }

  /** Claims until every slot is busy (returns undefined: a finishing job kicks) or nothing is due (returns the wait). */
  private async fillSlots(): Promise<number | undefined> {
    for (;;) {
      this.claimAgain = false
      const slot = this.freeSlot()
      if (slot === undefined || this.state !== 'started') return undefined
      const workerId = `${this.workerPrefix}:${slot}`
      const skipBots = this.botsAtTheirShare()
      const job = await this.queue.claim({ workerId, kinds: this.kinds, leaseMs: this.leaseMs, ...(skipBots.length > 0 ? { skipBots } : {}) })
      if (!job) return this.idleMs()
      this.launch(job, slot, workerId)
      await nextTurn()
    }
  }

  private async idleMs(): Promise<number> {
    const due = await this.queue.nextDueAt(this.kinds)
    if (!due) return this.pollMs
    return Math.min(this.pollMs, Math.max(MIN_IDLE_MS, due.getTime() - this.now().getTime()))
  }

  /** The bots whose jobs hold `slotsPerBot` slots already: the next claim passes over their jobs (decision 1463). */
  private botsAtTheirShare(): string[] {
    const held = new Map<string, number>()
    for (const run of this.slots.values()) {
      const botId = botOf(run.job)
      if (botId !== undefined) held.set(botId, (held.get(botId) ?? 0) + 1)
    }
    return [...held].filter(([, count]) => count >= this.slotsPerBot).map(([botId]) => botId)
  }

  private freeSlot(): number | undefined {
    for (let slot = 0; slot < this.concurrency; slot++) if (!this.slots.has(slot)) return slot
    return undefined
  }

  private launch(job: JobRecord, slot: number, workerId: string): void {
    const run: RunningJob = {
      job,
      workerId,
      controller: new AbortController(),
      renewal: undefined,
      renewing: false,
      settled: false,
      abandoned: false,
      done: Promise.resolve(),
    }
    run.renewal = setInterval(() => void this.renew(run), Math.max(1, Math.floor(this.leaseMs / 3)))
    this.slots.set(slot, run)
    this.log('debug', 'job claimed', this.fieldsOf(run))
    run.done = this.execute(run).finally(() => {
      clearInterval(run.renewal)
      if (this.slots.get(slot) === run) this.slots.delete(slot)
      this.kick()
    })
  }

  private async renew(run: RunningJob): Promise<void> {
    if (run.renewing || run.controller.signal.aborted) return
    run.renewing = true
    try {
      const held = await this.queue.heartbeat(run.job.id, run.workerId, this.leaseMs)
      if (!held && !run.settled && !run.controller.signal.aborted) {
        clearInterval(run.renewal)
        this.log('warn', 'job lease lost; aborting its handler', this.fieldsOf(run))
        run.controller.abort(new DOMException(`lost the lease of job ${run.job.id}: another worker may be running it`, 'AbortError'))
      }
    } catch (error) {
      // Transient store trouble: the next renewal may still make it before the lease runs out.
      this.log('warn', 'job heartbeat failed', { ...this.fieldsOf(run), error: messageOf(error) })
    } finally {
      run.renewing = false
    }
  }

  private abandon(run: RunningJob): void {
    run.abandoned = true
    clearInterval(run.renewal)
    this.log('warn', 'job still running at shutdown; left to lease expiry', this.fieldsOf(run))
    run.controller.abort(new DOMException(`the job runner stopped before job ${run.job.id} finished`, 'AbortError'))
  }

  private async execute(run: RunningJob): Promise<void> {
    const handler = this.handlers.get(run.job.kind)
    const startedAt = Date.now()
    let failure: { error: unknown } | undefined
    try {
      if (!handler) throw new PermanentJobError(`no handler for the job kind ${run.job.kind}`)
      const payload = readPayload(handler, run.job.payload)
      await handler.run({ job: run.job, payload, signal: run.controller.signal, attempt: run.job.attempts, services: this.services() })
    } catch (error) {
      failure = { error }
    }
    run.settled = true
    const fields = { ...this.fieldsOf(run), durationMs: Date.now() - startedAt }
    if (run.abandoned || run.controller.signal.aborted) {
      // Another worker may hold the job now, or it is left to lease expiry: recording would be wrong or refused.
      this.log('debug', 'job ended after its signal was aborted; outcome not recorded', fields)
      return
    }
    clearInterval(run.renewal)
    try {
      if (!failure) {
        const completed = await this.queue.complete(run.job.id, run.workerId)
        if (completed) this.log('info', 'job completed', fields)
        else this.log('warn', 'job finished after its lease was lost; not recorded', fields)
        return
      }
      const permanent = failure.error instanceof PermanentJobError
      const error = messageOf(failure.error)
      const failed = await this.queue.fail(run.job.id, run.workerId, { error, retry: !permanent })
      if (!failed) this.log('warn', 'job failed after its lease was lost; not recorded', { ...fields, error })
      else this.log('warn', 'job failed', { ...fields, error, permanent, state: failed.state, runAt: failed.runAt })
    } catch (error) {
      this.log('error', 'could not record the job outcome; left to lease expiry', { ...fields, error: messageOf(error) })
    }
  }

  private fieldsOf(run: RunningJob): Record<string, unknown> {
    return { jobId: run.job.id, kind: run.job.kind, attempt: run.job.attempts, workerId: run.workerId }
  }

  private log(level: JobLogLevel, message: string, fields: Record<string, unknown>): void {
    try {
      this.logger?.log(level, message, fields)
    } catch {
      // A broken logger must not stop jobs.
    }
  }
}

/** The bot a job works for: its payload's `botId`, when it has one. */
function botOf(job: JobRecord): string | undefined {
  const payload = job.payload as { botId?: unknown } | null
  return typeof payload === 'object' && payload !== null && typeof payload.botId === 'string' ? payload.botId : undefined
}
