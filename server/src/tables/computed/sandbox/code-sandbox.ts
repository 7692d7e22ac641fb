import { availableParallelism } from 'node:os'
import type { ResourceLimits, Worker } from 'node:worker_threads'
import { moduleWorkers, spawnModuleWorker } from '../../../platform/index.js'
import { failureReason, type EngineFailure } from './failure-reasons.js'
import { decodeResult, encodeRow } from './json-values.js'
import type { SandboxRequest, SandboxResponse, SandboxRunning, SandboxWarmUp } from './sandbox-messages.js'
import { SandboxError } from './sandbox-error.js'

/** Options of `createCodeSandbox`. */
export interface CodeSandboxOptions {
  /** The most one computation may run, in ms, from the moment its code starts (default 1000), e.g. `{ timeLimitMs: 250 }`. */
  timeLimitMs?: number
  /** The most memory one computation's engine may allocate, in bytes (default 64 MB), e.g. `{ memoryLimitBytes: 16 * 1024 * 1024 }`. */
  memoryLimitBytes?: number
  /** How many computations run at once, each on a worker thread of its own (default: the cores less one, 1 to 4), e.g. `{ concurrency: 2 }`. */
  concurrency?: number
}

/** What one computation gave: its value (JSON), or why it failed, worded for the cell's status. */
export type CodeRunOutcome = { ok: true; value: unknown } | { ok: false; reason: string }

/** Runs code columns' code off the main thread, each computation in a fresh QuickJS engine under limits. */
export interface CodeSandbox {
  /**
   * Runs `code` as the body of `async function (row)` and settles with its value or the reason it failed. Anything
   * the code does (throw, loop forever, allocate without end, reach for `process`, `require`, `fetch` or timers,
   * return something that is not JSON) is a `{ ok: false, reason }` for that computation alone. It rejects only
   * with a `SandboxError` when the sandbox itself cannot answer (`SANDBOX_CLOSED`, `SANDBOX_UNAVAILABLE`): then
   * the computation should be tried again later, not marked failed.
   *
   * @example
   * ```ts
   * await sandbox.run('return row.price * row.quantity', { price: 2.5, quantity: 4 }) // { ok: true, value: 10 }
   * await sandbox.run('while (true) {}', {}) // { ok: false, reason: 'time limit: the code ran longer than 1000 ms, ...' }
   * ```
   */
  run(code: string, row: Record<string, unknown>): Promise<CodeRunOutcome>
  /**
   * Stops every worker thread; computations waiting or running reject with `SANDBOX_CLOSED`, and so does any later
   * `run`.
   *
   * @example
   * ```ts
   * await sandbox.close()
   * ```
   */
  close(): Promise<void>
}

/** The limits used when an option is left out. */
export const CODE_SANDBOX_DEFAULTS = {
  timeLimitMs: 1000,
  memoryLimitBytes: 64 * 1024 * 1024,
  concurrency: Math.max(1, Math.min(4, availableParallelism() - 1)),
} as const

/** Bounds of the options: a limit outside them is refused when the sandbox is created. */
export const CODE_SANDBOX_BOUNDS = {
  timeLimitMs: { min: 1, max: 60_000 },
  memoryLimitBytes: { min: 1024 * 1024, max: 2 * 1024 * 1024 * 1024 },
  concurrency: { min: 1, max: 64 },
} as const

/** How long a new worker may take to load its engine before the computation is answered `SANDBOX_UNAVAILABLE`. */
const STARTUP_LIMIT_MS = 60_000

/**
 * How long past the time limit the pool waits before it terminates a worker whose engine did not stop by itself
 * (one long native operation, such as a huge `String.prototype.repeat`, is not interrupted inside QuickJS).
 */
const watchdogGraceMs = (timeLimitMs: number): number => Math.max(250, timeLimitMs)

interface Job {
  request: SandboxRequest
  resolve: (outcome: CodeRunOutcome) => void
  reject: (error: SandboxError) => void
}

interface Slot {
  worker: Worker | undefined
  job: Job | undefined
  timer: NodeJS.Timeout | undefined
}

/**
 * Creates the sandbox code columns run in. Each computation runs on a worker thread (so an endless loop never holds
 * the service's event loop) in a fresh QuickJS runtime (WebAssembly; decision 1423) with no globals beyond the
 * language itself: no `process`, `require`, `import`, files, network or timers. Time is bounded by QuickJS's
 * interrupt handler and, should the engine not stop, by terminating the worker; memory by the runtime's allocation
 * limit. A worker that crashes or is terminated is replaced for the next computation; at most `concurrency`
 * computations run at once and the others wait in order.
 *
 * Values in and out are JSON, with `JSON.stringify`'s rules: in the row and in the result, a `Date` becomes its ISO
 * string, `NaN` and `Infinity` become `null`, `undefined` and function properties are left out (`null` in arrays). A
 * result of `undefined` (the code returns nothing) is `null`. A result that has no JSON form fails the computation
 * with a reason: a `BigInt`, a cycle, a function or symbol as the value itself, a `toJSON` that throws, more than
 * 1 MB of JSON. A row that has no JSON form (a `BigInt`, a cycle), or whose JSON is larger than the memory limit,
 * fails the computation the same way.
 *
 * @example
 * ```ts
 * const sandbox = createCodeSandbox({ timeLimitMs: 1000, memoryLimitBytes: 64 * 1024 * 1024, concurrency: 2 })
 * const outcome = await sandbox.run('const words = row.text.split(/\\s+/); return words.length', { text: 'a b c' })
 * // { ok: true, value: 3 }
 * await sandbox.close()
 * ```
 */
export function createCodeSandbox(options: CodeSandboxOptions = {}): CodeSandbox {
  return createCodeSandboxOn((resourceLimits) => spawnModuleWorker(moduleWorkers.codeSandbox, resourceLimits), options)
}

/**
 * `createCodeSandbox` with the way its worker threads start given: the tests start workers that crash, to check that
 * the pool replaces them. The service uses `createCodeSandbox`.
 *
 * @example
 * ```ts
 * const sandbox = createCodeSandboxOn((limits) => spawnModuleWorker(import.meta.url, 'sandbox-worker', limits), { concurrency: 1 })
 * ```
 */
export function createCodeSandboxOn(spawnWorker: (resourceLimits: ResourceLimits) => Worker, options: CodeSandboxOptions = {}): CodeSandbox {
  const timeLimitMs = checkedOption('timeLimitMs', options.timeLimitMs)
  const memoryLimitBytes = checkedOption('memoryLimitBytes', options.memoryLimitBytes)
  const concurrency = checkedOption('concurrency', options.concurrency)
  const limits = { timeLimitMs, memoryLimitBytes }
  // The worker's own heap holds the row and result texts; the engine's WebAssembly memory is apart from it.
  const workerHeapMb = 64 + Math.ceil((2 * memoryLimitBytes) / (1024 * 1024))
  const slots: Slot[] = Array.from({ length: concurrency }, () => ({ worker: undefined, job: undefined, timer: undefined }))
  const queue: Job[] = []
  let nextId = 1
  let closed = false

  function dispatch(): void {
    for (const slot of slots) {
      if (slot.job || queue.length === 0) continue
      start(slot, queue.shift()!)
    }
  }

  function start(slot: Slot, job: Job): void {
    if (!slot.worker) {
      try {
        attach(slot, spawnWorker({ maxOldGenerationSizeMb: workerHeapMb }))
        slot.worker!.postMessage({ kind: 'warm-up', memoryLimitBytes } satisfies SandboxWarmUp)
      } catch (error) {
        job.reject(new SandboxError('SANDBOX_UNAVAILABLE', `no sandbox worker thread could start: ${(error as Error).message}`, { cause: error }))
        return dispatch()
      }
    }
    slot.job = job
    slot.worker!.ref()
    slot.timer = setTimeout(() => unavailable(slot, job, `the sandbox worker did not load its engine within ${STARTUP_LIMIT_MS} ms`), STARTUP_LIMIT_MS)
    slot.worker!.postMessage(job.request)
  }

  function attach(slot: Slot, worker: Worker): void {
    slot.worker = worker
    worker.unref()
    worker.on('message', (message: SandboxResponse | SandboxRunning) => {
      const job = slot.job
      if (slot.worker !== worker || !job || job.request.id !== message.id) return
      if (message.kind === 'running') {
        clearTimeout(slot.timer)
        slot.timer = setTimeout(() => stopRunaway(slot, job), timeLimitMs + watchdogGraceMs(timeLimitMs))
        return
      }
      release(slot)
      if (message.kind === 'value') {
        const decoded = decodeResult(message.json)
        job.resolve('value' in decoded ? { ok: true, value: decoded.value } : { ok: false, reason: decoded.reason })
      } else if (message.kind === 'failed') {
        job.resolve({ ok: false, reason: message.reason })
      } else {
        job.reject(new SandboxError('SANDBOX_UNAVAILABLE', message.message))
      }
      dispatch()
    })
    worker.on('error', (error: Error & { code?: string }) => {
      if (slot.worker !== worker) return
      // The worker's own heap ran out: the code built a value too large to hand back.
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') return lost(slot, worker, { kind: 'memory' })
      lost(slot, worker, { kind: 'crashed', message: error.message })
    })
    worker.on('exit', (code) => {
      if (slot.worker !== worker) return
      lost(slot, worker, { kind: 'crashed', message: `exit code ${code}` })
    })
  }

  /** The slot's worker died under a computation: that computation fails, a new worker takes the next one. */
  function lost(slot: Slot, worker: Worker, failure: EngineFailure): void {
    const job = slot.job
    discard(slot)
    void worker.terminate()
    job?.resolve({ ok: false, reason: failureReason(failure, limits) })
    dispatch()
  }

  function stopRunaway(slot: Slot, job: Job): void {
    if (slot.job !== job) return
    const worker = discard(slot)
    void worker?.terminate()
    job.resolve({ ok: false, reason: failureReason({ kind: 'watchdog' }, limits) })
    dispatch()
  }

  function unavailable(slot: Slot, job: Job, why: string): void {
    if (slot.job !== job) return
    const worker = discard(slot)
    void worker?.terminate()
    job.reject(new SandboxError('SANDBOX_UNAVAILABLE', why))
    dispatch()
  }

  /** The slot is free again; its worker idles warm without holding the process open. */
  function release(slot: Slot): void {
    clearTimeout(slot.timer)
    slot.timer = undefined
    slot.job = undefined
    slot.worker?.unref()
  }

  function discard(slot: Slot): Worker | undefined {
    const worker = slot.worker
    release(slot)
    slot.worker = undefined
    return worker
  }

  return {
    run(code, row) {
      if (closed) return Promise.reject(closedError())
      if (typeof code !== 'string') {
        return Promise.resolve({ ok: false, reason: `the code must be a string, received ${code === null ? 'null' : typeof code}` })
      }
      const encoded = encodeRow(row)
      if ('reason' in encoded) return Promise.resolve({ ok: false, reason: encoded.reason })
      // The row is copied into the engine and parsed there: one larger than the memory limit cannot fit.
      if (encoded.json.length > memoryLimitBytes) {
        return Promise.resolve({ ok: false, reason: `memory limit: the row is ${encoded.json.length} characters of JSON, more than the ${memoryLimitBytes} bytes one computation may use` })
      }
      return new Promise<CodeRunOutcome>((resolve, reject) => {
        queue.push({ request: { id: nextId++, code, rowJson: encoded.json, timeLimitMs, memoryLimitBytes }, resolve, reject })
        dispatch()
      })
    },
    async close() {
      closed = true
      for (const job of queue.splice(0)) job.reject(closedError())
      const terminations: Array<Promise<number>> = []
      for (const slot of slots) {
        slot.job?.reject(closedError())
        const worker = discard(slot)
        if (worker) terminations.push(worker.terminate())
      }
      await Promise.all(terminations)
    },
  }
}

function closedError(): SandboxError {
  return new SandboxError('SANDBOX_CLOSED', 'the code sandbox was closed; the computation did not run')
}

function checkedOption(name: keyof typeof CODE_SANDBOX_BOUNDS, value: number | undefined): number {
  if (value === undefined) return CODE_SANDBOX_DEFAULTS[name]
  const { min, max } = CODE_SANDBOX_BOUNDS[name]
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new SandboxError('INVALID_SANDBOX_OPTIONS', `${name}: expected an integer from ${min} to ${max}, received ${JSON.stringify(value) ?? String(value)}`)
  }
  return value
}
