import type { Worker } from 'node:worker_threads'
import { ExtractionError } from '../extraction-error.js'
import type { RenderedPdfPages } from '../formats/pdf-pages.js'
import type { ExtractedPassage } from '../passage.js'
import { spawnExtractionWorker } from './spawn-worker.js'
import type { ExtractionRequest, ExtractionResponse, PageRenderRequest, WorkerRequest } from './worker-messages.js'

/** One document waiting for, or running in, a worker. */
interface Job {
  request: WorkerRequest
  signal: AbortSignal | undefined
  resolve: (value: ExtractedPassage[] | RenderedPdfPages) => void
  reject: (error: ExtractionError) => void
  settled: boolean
  onAbort?: () => void
}

interface Slot {
  worker: Worker | undefined
  memoryMb: number
  job: Job | undefined
  timer: NodeJS.Timeout | undefined
}

/**
 * A small pool of extraction worker threads. Each runs one document at a time under its limits: a heap bound
 * (`resourceLimits`, fixed when the thread starts, so a thread is restarted when a document asks for another
 * bound) and a wall-clock bound after which the thread is terminated. A thread that crashes, runs out of heap,
 * times out or is aborted is discarded and a fresh one takes its place for the next document; its caller gets an
 * `ExtractionError` (`MEMORY_LIMIT`, `TIME_LIMIT`, `ABORTED`, `WORKER_FAILED`), never a hang. Idle threads do
 * not keep the process alive.
 *
 * @example
 * ```ts
 * const pool = new ExtractionWorkerPool({ size: 1 })
 * const passages = await pool.run(request, undefined)
 * await pool.close()
 * ```
 */
export class ExtractionWorkerPool {
  private readonly slots: Slot[]
  private readonly queue: Job[] = []
  private nextId = 1

  constructor(options: {
    /** How many documents are extracted at once, e.g. `{ size: 1 }` (each runs on its own thread). */
    size: number
  }) {
    if (!Number.isInteger(options.size) || options.size < 1 || options.size > 64) {
      throw new ExtractionError('INVALID_OPTIONS', `size: expected an integer from 1 to 64, received ${JSON.stringify(options.size)}`)
    }
    this.slots = Array.from({ length: options.size }, () => ({ worker: undefined, memoryMb: 0, job: undefined, timer: undefined }))
  }

  /**
   * Extracts one document in a worker thread; settles when it is done or fails (see the class).
   *
   * @example
   * ```ts
   * await pool.run({ content, contentType: 'application/pdf', key: 'a.pdf', maximumChunkLength: 1000, limits }, signal)
   * ```
   */
  run(request: Omit<ExtractionRequest, 'id' | 'kind'>, signal: AbortSignal | undefined): Promise<ExtractedPassage[]> {
    return this.enqueue({ ...request, kind: 'extract', id: this.nextId++ }, signal) as Promise<ExtractedPassage[]>
  }

  /**
   * Renders pages of one PDF to PNG images in a worker thread (`renderPdfPagesHere`), under the same limits and
   * failures as {@link run}.
   *
   * @example
   * ```ts
   * const { pages } = await pool.renderPages({ content, key: 'scan.pdf', pages: [1], maxPages: 50, longestSidePx: 1500, limits }, signal)
   * ```
   */
  renderPages(request: Omit<PageRenderRequest, 'id' | 'kind'>, signal: AbortSignal | undefined): Promise<RenderedPdfPages> {
    return this.enqueue({ ...request, kind: 'render-pages', id: this.nextId++ }, signal) as Promise<RenderedPdfPages>
  }

  private enqueue(request: WorkerRequest, signal: AbortSignal | undefined): Promise<ExtractedPassage[] | RenderedPdfPages> {
    return new Promise((resolve, reject) => {
      const job: Job = { request, signal, resolve, reject, settled: false }
      if (signal?.aborted) return reject(abortedError(request.key))
      if (signal) {
        job.onAbort = () => this.abort(job)
        signal.addEventListener('abort', job.onAbort, { once: true })
      }
      this.queue.push(job)
      this.dispatch()
    })
  }

  /**
   * Terminates every thread; documents still waiting or running fail with `ABORTED`. The pool can be used again
   * afterwards (threads start on demand).
   *
   * @example
   * ```ts
   * await pool.close()
   * ```
   */
  async close(): Promise<void> {
    for (const job of this.queue.splice(0)) this.settle(job, abortedError(job.request.key, 'the extraction workers were shut down'))
    const terminations: Array<Promise<unknown>> = []
    for (const slot of this.slots) {
      if (slot.job) this.settle(slot.job, abortedError(slot.job.request.key, 'the extraction workers were shut down'))
      const worker = this.discard(slot)
      if (worker) terminations.push(worker.terminate())
    }
    await Promise.all(terminations)
  }

  /** How many threads are running now (for tests and metrics). */
  get threadCount(): number {
    return this.slots.filter((slot) => slot.worker !== undefined).length
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.job || this.queue.length === 0) continue
      const job = this.queue.shift()!
      this.start(slot, job)
    }
  }

  private start(slot: Slot, job: Job): void {
    const memoryMb = job.request.limits.memoryMb
    if (slot.worker && slot.memoryMb !== memoryMb) void this.discard(slot)?.terminate()
    if (!slot.worker) {
      try {
        this.attach(slot, spawnExtractionWorker(memoryMb), memoryMb)
      } catch (error) {
        this.settle(job, new ExtractionError('WORKER_FAILED', `${job.request.key} could not be extracted: no worker thread could start (${(error as Error).message})`))
        return this.dispatch()
      }
    }
    slot.job = job
    slot.worker!.ref()
    slot.timer = setTimeout(() => this.timeOut(slot, job), job.request.limits.timeMs)
    slot.worker!.postMessage(job.request)
  }

  private attach(slot: Slot, worker: Worker, memoryMb: number): void {
    slot.worker = worker
    slot.memoryMb = memoryMb
    worker.unref()
    worker.on('message', (response: ExtractionResponse) => {
      if (slot.worker !== worker || !slot.job || slot.job.request.id !== response.id) return
      const job = slot.job
      this.release(slot)
      if (response.ok) this.settle(job, undefined, 'rendered' in response ? response.rendered : response.passages)
      else this.settle(job, toExtractionError(response))
      this.dispatch()
    })
    worker.on('error', (error: Error & { code?: string }) => {
      if (slot.worker !== worker) return
      const job = slot.job
      const key = job?.request.key ?? 'a document'
      const failure =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new ExtractionError('MEMORY_LIMIT', `${key} needs more than the ${memoryMb} MB of memory one extraction may use`)
          : new ExtractionError('WORKER_FAILED', `${key} could not be extracted: the worker thread failed (${error.message})`)
      this.fail(slot, worker, failure)
    })
    worker.on('exit', (code) => {
      if (slot.worker !== worker) return
      this.fail(slot, worker, new ExtractionError('WORKER_FAILED', `${slot.job?.request.key ?? 'a document'} could not be extracted: the worker thread exited (code ${code})`))
    })
  }

  /** The slot's thread died: its job fails, the thread is dropped (the next job starts a new one). */
  private fail(slot: Slot, worker: Worker, failure: ExtractionError): void {
    const job = slot.job
    this.discard(slot)
    void worker.terminate()
    if (job) this.settle(job, failure)
    this.dispatch()
  }

  private timeOut(slot: Slot, job: Job): void {
    if (slot.job !== job) return
    const { key, limits } = job.request
    const worker = slot.worker
    this.discard(slot)
    void worker?.terminate()
    const what = job.request.kind === 'render-pages' ? 'to render its pages' : 'to extract'
    this.settle(job, new ExtractionError('TIME_LIMIT', `${key} took longer than ${limits.timeMs} ms ${what}, the most one document may take`))
    this.dispatch()
  }

  private abort(job: Job): void {
    if (job.settled) return
    const queued = this.queue.indexOf(job)
    if (queued >= 0) {
      this.queue.splice(queued, 1)
      return this.settle(job, abortedError(job.request.key))
    }
    const slot = this.slots.find((candidate) => candidate.job === job)
    if (slot) {
      const worker = this.discard(slot)
      void worker?.terminate()
    }
    this.settle(job, abortedError(job.request.key))
    this.dispatch()
  }

  /** The slot is free again; its thread idles without holding the process open. */
  private release(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer)
    slot.timer = undefined
    slot.job = undefined
    slot.worker?.unref()
  }

  /** Frees the slot and forgets its thread; returns the thread so the caller can terminate it. */
  private discard(slot: Slot): Worker | undefined {
    const worker = slot.worker
    this.release(slot)
    slot.worker = undefined
    return worker
  }

  private settle(job: Job, error: ExtractionError | undefined, value?: ExtractedPassage[] | RenderedPdfPages): void {
    if (job.settled) return
    job.settled = true
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort)
    if (error) job.reject(error)
    else job.resolve(value!)
  }
}

function toExtractionError(response: Extract<ExtractionResponse, { ok: false }>): ExtractionError {
  const code = ExtractionError.isCode(response.code) ? response.code : 'WORKER_FAILED'
  return new ExtractionError(code, response.message, response.metadata)
}

function abortedError(key: string, why = 'the extraction was aborted'): ExtractionError {
  return new ExtractionError('ABORTED', `${key} was not extracted: ${why}`)
}
