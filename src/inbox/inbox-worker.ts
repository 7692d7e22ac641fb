import { toClock, type ClockLike } from '../clock/index.js'
import { EventValidationError } from '../event/index.js'
import { createJsonLogger, toLogger, type Logger, type LoggerLike } from '../logging/index.js'
import type { DispatchReport, Runtime } from '../runtime/index.js'
import { InboxError } from './errors.js'
import type { Inbox, InboxAddResult, InboxEntry, NewInboxEntry } from './inbox.js'
import { checkRetryDelays } from './retry-schedule.js'

/** Options of `createInboxWorker`. */
export interface InboxWorkerOptions {
  /**
   * The runtime whose hooks process the events.
   * @example `runtime: createRuntime({ hooks })`
   */
  runtime: Pick<Runtime, 'dispatch'>
  /**
   * Where accepted events wait: `createTableInbox(...)` to survive crashes, `createMemoryInbox()` in tests.
   * @example `inbox: createTableInbox({ client })`
   */
  inbox: Inbox
  /**
   * Most conversations processed at the same time (events of one conversation always run one after another).
   * Default 8.
   * @example `concurrency: 32`
   */
  concurrency?: number
  /**
   * Waits before each retry of a failing event, in milliseconds; after the last the event goes to the dead-letter
   * list. Default `[1000, 5000, 30000, 120000, 600000]` (six runs).
   * @example `retryDelaysMs: [10, 10]` (tests: three quick runs)
   */
  retryDelaysMs?: readonly number[]
  /**
   * How long processed entries are kept to answer duplicates, in milliseconds. Default 600 000 (twice the
   * receiver's default timestamp tolerance: an older duplicate fails the timestamp check anyway).
   * @example `keepDoneMs: 3_600_000`
   */
  keepDoneMs?: number
  /**
   * Clock of the entries' times. Default: the real time.
   * @example `now: clock.now`
   */
  now?: ClockLike
  /**
   * Where failures and dead letters are logged. Default: JSON lines on standard error.
   * @example `logger: createJsonLogger({ level: 'warn' })`
   */
  logger?: LoggerLike
}

/** Runs the events of an inbox through the runtime, in order per conversation, with retries and a dead-letter list. */
export interface InboxWorker {
  /** The inbox it works on. */
  readonly inbox: Inbox
  /**
   * Writes an accepted event to the inbox, stamped with the worker's clock, and queues it (what the
   * acknowledge-first receiver calls before `202`). An id already in the inbox is not queued again (`added: false`).
   * @example `await worker.accept({ id: 'msg_1', key: orderingKey(event), body })`
   */
  accept(entry: Omit<NewInboxEntry, 'receivedAt'>): Promise<InboxAddResult>
  /**
   * Loads the pending entries left by an earlier process (killed between `202` and the end of processing) and
   * starts processing. Call once at start-up.
   * @example `await worker.start()`
   */
  start(): Promise<void>
  /**
   * Stops taking new runs, cancels waiting retries and waits for the runs in progress. Pending entries stay in the
   * inbox for the next `start`.
   * @example `await worker.stop()`
   */
  stop(): Promise<void>
  /**
   * Resolves when nothing is queued, running or waiting for a retry (tests).
   * @example `await worker.whenIdle()`
   */
  whenIdle(): Promise<void>
  /**
   * The events given up on after their last retry (or refused as invalid), oldest first, with `lastError`.
   * @example `for (const entry of await worker.deadLetters()) console.log(entry.id, entry.lastError)`
   */
  deadLetters(): Promise<InboxEntry[]>
  /**
   * Puts a dead letter back to pending with fresh attempts and queues it (after the conversation's queued events).
   * Throws `InboxError` `INBOX_ENTRY_NOT_FOUND` when `id` is not a dead letter.
   * @example `await worker.replay('msg_1')`
   */
  replay(id: string): Promise<InboxEntry>
}

interface KeyQueue {
  entries: InboxEntry[]
  /** `ready`: in the ready list; `running`: a run holds a slot; `waiting`: a retry timer is set; `idle`. */
  state: 'idle' | 'ready' | 'running' | 'waiting'
  timer?: ReturnType<typeof setTimeout>
}

/**
 * A worker for the acknowledge-first receiver (decision 1402). Each entry runs through `runtime.dispatch`; a run
 * that throws or whose report is not `ok` (a hook failed or timed out) is retried after the next wait of
 * `retryDelaysMs`, and after the last one the entry becomes a dead letter. An entry whose event does not validate
 * is a dead letter at once. Events of one conversation run one at a time in arrival order, a failing one holding
 * back the later ones until it succeeds or is given up; up to `concurrency` conversations run in parallel. The
 * attempt is counted in the inbox before the hooks run, so an event that crashes the process is given up on too.
 *
 * @example
 * ```ts
 * const worker = createInboxWorker({ runtime, inbox: createTableInbox({ client }), concurrency: 16 })
 * const handler = createWebhookHandler({ runtime, secret, acknowledgeFirst: worker })
 * await worker.start()
 * ```
 */
export function createInboxWorker(options: InboxWorkerOptions): InboxWorker {
  const { runtime, inbox } = options
  if (!runtime || typeof runtime.dispatch !== 'function') {
    throw new InboxError('INVALID_INBOX_OPTIONS', `runtime: expected a runtime from createRuntime, received ${typeof runtime}`)
  }
  if (!inbox || typeof inbox.add !== 'function') {
    throw new InboxError('INVALID_INBOX_OPTIONS', `inbox: expected an Inbox (createTableInbox or createMemoryInbox), received ${typeof inbox}`)
  }
  const concurrency = options.concurrency ?? 8
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new InboxError('INVALID_INBOX_OPTIONS', `concurrency: expected a positive integer, received ${String(concurrency)}`)
  }
  const retryDelays = checkRetryDelays(options.retryDelaysMs)
  const maxRuns = retryDelays.length + 1
  const keepDoneMs = options.keepDoneMs ?? 600_000
  const now = toClock(options.now)
  const logger: Logger = options.logger ? toLogger(options.logger) : createJsonLogger()

  const queues = new Map<string, KeyQueue>()
  const queued = new Set<string>()
  const ready: string[] = []
  const runs = new Set<Promise<void>>()
  let running = 0
  let started = false
  let stopped = false
  let lastPrune = 0
  let idleWaiters: Array<() => void> = []

  const isIdle = (): boolean => queued.size === 0 && running === 0
  const settleIdle = (): void => {
    if (!isIdle()) return
    const waiters = idleWaiters
    idleWaiters = []
    for (const resolve of waiters) resolve()
  }

  function enqueue(entry: InboxEntry): void {
    if (queued.has(entry.id) || entry.status !== 'pending') return
    queued.add(entry.id)
    let queue = queues.get(entry.key)
    if (!queue) {
      queue = { entries: [], state: 'idle' }
      queues.set(entry.key, queue)
    }
    // Keep seq order even when a replayed or reloaded entry arrives after later ones were queued.
    // The head of a running or waiting conversation stays first.
    let at = queue.entries.findIndex((e) => e.seq > entry.seq)
    if (at === 0 && (queue.state === 'running' || queue.state === 'waiting')) at = 1
    if (at < 0) queue.entries.push(entry)
    else queue.entries.splice(at, 0, entry)
    if (queue.state === 'idle') markReady(entry.key, queue)
  }

  function markReady(key: string, queue: KeyQueue): void {
    queue.state = 'ready'
    ready.push(key)
    pump()
  }

  function pump(): void {
    while (started && !stopped && running < concurrency && ready.length > 0) {
      const key = ready.shift()!
      const queue = queues.get(key)
      if (!queue || queue.state !== 'ready') continue
      queue.state = 'running'
      running++
      const run = runHead(key, queue).finally(() => {
        running--
        runs.delete(run)
        pump()
        settleIdle()
      })
      runs.add(run)
    }
  }

  function waitThenReady(key: string, queue: KeyQueue, delayMs: number): void {
    queue.state = 'waiting'
    // A run that ends after `stop` sets no timer: its entry stays pending in the inbox for the next `start`.
    if (stopped) return
    queue.timer = setTimeout(() => {
      queue.timer = undefined
      if (!stopped) markReady(key, queue)
    }, Math.max(0, delayMs))
  }

  /** Runs the head entry of one conversation, then gives the slot back (round robin between conversations). */
  async function runHead(key: string, queue: KeyQueue): Promise<void> {
    const entry = queue.entries[0]
    if (!entry) {
      queue.state = 'idle'
      queues.delete(key)
      return
    }
    const wait = entry.nextAttemptAt - now().getTime()
    if (wait > 0) return waitThenReady(key, queue, wait)
    let next: InboxEntry
    try {
      next = await runOnce(entry)
    } catch (error) {
      // The inbox itself failed (storage unreachable): keep the entry queued and try again after the first wait.
      logger.error('inbox write failed; the event stays queued', { webhookId: entry.id, error: describe(error) })
      return waitThenReady(key, queue, retryDelays[0] ?? 1000)
    }
    if (next.status === 'pending') {
      queue.entries[0] = next
      return waitThenReady(key, queue, next.nextAttemptAt - now().getTime())
    }
    queue.entries.shift()
    queued.delete(entry.id)
    if (queue.entries.length === 0) {
      queue.state = 'idle'
      queues.delete(key)
    } else {
      queue.state = 'idle'
      markReady(key, queue)
    }
    if (next.status === 'done') maybePrune()
  }

  /** One run of an entry: counts the attempt, dispatches, records the outcome. Answers the updated entry. */
  async function runOnce(entry: InboxEntry): Promise<InboxEntry> {
    const attempts = entry.attempts + 1
    await inbox.update(entry.id, { attempts })
    let failure: string
    let final = false
    try {
      const report = await runtime.dispatch(JSON.parse(entry.body))
      if (report.ok) return inbox.update(entry.id, { status: 'done', finishedAt: now().getTime() })
      failure = describeReport(report)
    } catch (error) {
      failure = describe(error)
      // No retry makes an invalid event valid.
      final = error instanceof EventValidationError || error instanceof SyntaxError
    }
    if (final || attempts >= maxRuns) {
      logger.error('event given up after its last run: in the dead-letter list', { webhookId: entry.id, attempts, error: failure })
      return inbox.update(entry.id, { status: 'dead', finishedAt: now().getTime(), lastError: failure })
    }
    const delay = retryDelays[attempts - 1] ?? 0
    logger.warn('event processing failed; retrying', { webhookId: entry.id, attempts, retryInMs: delay, error: failure })
    return inbox.update(entry.id, { status: 'pending', nextAttemptAt: now().getTime() + delay, lastError: failure })
  }

  function maybePrune(): void {
    const at = now().getTime()
    if (at - lastPrune < keepDoneMs / 2) return
    lastPrune = at
    inbox.prune(at - keepDoneMs).catch((error: unknown) => logger.warn('inbox prune failed', { error: describe(error) }))
  }

  return {
    inbox,
    async accept(entry) {
      // The worker's clock, so that the entry's first `nextAttemptAt` compares with the times the worker reads.
      const result = await inbox.add({ ...entry, receivedAt: now().getTime() })
      if (result.added) enqueue(result.entry)
      return result
    },
    async start() {
      if (started) return
      started = true
      stopped = false
      lastPrune = now().getTime()
      for (const entry of await inbox.list('pending')) enqueue(entry)
      pump()
      settleIdle()
    },
    async stop() {
      stopped = true
      for (const queue of queues.values()) if (queue.timer) clearTimeout(queue.timer)
      await Promise.allSettled([...runs])
      started = false
      queues.clear()
      queued.clear()
      ready.length = 0
      settleIdle()
    },
    whenIdle() {
      if (isIdle()) return Promise.resolve()
      return new Promise((resolve) => idleWaiters.push(resolve))
    },
    deadLetters() {
      return inbox.list('dead')
    },
    async replay(id) {
      const entry = await inbox.get(id)
      if (!entry || entry.status !== 'dead') {
        throw new InboxError('INBOX_ENTRY_NOT_FOUND', `Dead letter "${id}" not found${entry ? ` (its status is ${entry.status})` : ''}`)
      }
      const replayed = await inbox.update(id, { status: 'pending', attempts: 0, nextAttemptAt: now().getTime() })
      enqueue(replayed)
      return replayed
    },
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function describeReport(report: DispatchReport): string {
  return report.hooks
    .filter((hook) => hook.status === 'error' || hook.status === 'timeout')
    .map((hook) => hook.error?.message ?? `Hook "${hook.hook}" ${hook.status}`)
    .join('; ')
}
