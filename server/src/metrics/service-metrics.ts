import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import { BlobError } from '../blobs/errors.js'
import { BotshelfError } from 'botshelf/api'
import type { JobQueue } from '../store/index.js'
import { jobStates } from '../store/jobs/types.js'

/** Most jobs counted per state on a scrape: the job queue lists at most this many at once. */
export const JOBS_COUNTED_MAX = 500

/** One finished request as the metrics see it. */
export interface RequestObservation {
  /** The operation (`listFiles`), or the method and route of a route without one (`GET /health`). */
  operation: string
  status: number
  seconds: number
  /** Bytes of the request body, from its Content-Length (0 when absent). */
  bytesIn: number
  /** Bytes of the response body when known up front (0 otherwise: see `observeResponseBytes`). */
  bytesOut: number
}

/**
 * The service's Prometheus metrics, in a registry of their own (two apps in one process never mix):
 * `botshelf_requests_total{operation,status}`, `botshelf_request_duration_seconds{operation}`,
 * `botshelf_request_bytes_total{operation}`, `botshelf_response_bytes_total{operation}`,
 * `botshelf_jobs{state}` (read from the queue at each scrape), `botshelf_job_runs_total{kind,outcome}`,
 * `botshelf_database_errors_total`, `botshelf_blob_errors_total`, and Node's process metrics.
 *
 * @example
 * ```ts
 * const metrics = new ServiceMetrics({ jobs: backend.jobs })
 * metrics.observeRequest({ operation: 'listFiles', status: 200, seconds: 0.004, bytesIn: 0, bytesOut: 812 })
 * const text = await metrics.render()
 * ```
 */
export class ServiceMetrics {
  /** The registry: render it with `render()`, or merge it into your own. */
  readonly registry = new Registry()
  private readonly requests: Counter<'operation' | 'status'>
  private readonly duration: Histogram<'operation'>
  private readonly bytesIn: Counter<'operation'>
  private readonly bytesOut: Counter<'operation'>
  private readonly jobRuns: Counter<'kind' | 'outcome'>
  private readonly databaseErrors: Counter
  private readonly blobErrors: Counter

  /**
   * Creates the metrics; `jobs` is the queue whose jobs are counted by state at each scrape.
   *
   * @example
   * ```ts
   * new ServiceMetrics({ jobs: backend.jobs })
   * ```
   */
  constructor(
    options: {
      /** The queue whose jobs `botshelf_jobs` counts at each scrape, e.g. `jobs: backend.jobs`. */
      jobs?: JobQueue
    } = {},
  ) {
    const registers = [this.registry]
    collectDefaultMetrics({ register: this.registry })
    this.requests = new Counter({ name: 'botshelf_requests_total', help: 'Requests answered, by operation and HTTP status.', labelNames: ['operation', 'status'], registers })
    this.duration = new Histogram({
      name: 'botshelf_request_duration_seconds',
      help: 'Time from a request arriving to its answer starting, by operation.',
      labelNames: ['operation'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    })
    this.bytesIn = new Counter({ name: 'botshelf_request_bytes_total', help: 'Bytes of request bodies (their Content-Length), by operation.', labelNames: ['operation'], registers })
    this.bytesOut = new Counter({ name: 'botshelf_response_bytes_total', help: 'Bytes of response bodies sent, by operation.', labelNames: ['operation'], registers })
    this.jobRuns = new Counter({ name: 'botshelf_job_runs_total', help: 'Background job runs that ended, by kind and outcome (completed, retried, dead).', labelNames: ['kind', 'outcome'], registers })
    this.databaseErrors = new Counter({ name: 'botshelf_database_errors_total', help: 'Requests that failed with an error of the database (answered 500).', registers })
    this.blobErrors = new Counter({ name: 'botshelf_blob_errors_total', help: 'Requests that failed with an error of the blob store (answered 5xx).', registers })
    const queue = options.jobs
    new Gauge({
      name: 'botshelf_jobs',
      help: `Jobs in the queue by state, read at each scrape (each state counted up to ${JOBS_COUNTED_MAX}).`,
      labelNames: ['state'],
      registers,
      async collect() {
        if (!queue) return
        for (const state of jobStates) this.set({ state }, (await queue.list({ state, limit: JOBS_COUNTED_MAX })).length)
      },
    })
  }

  /**
   * Counts a finished request.
   *
   * @example
   * ```ts
   * metrics.observeRequest({ operation: 'getFile', status: 404, seconds: 0.002, bytesIn: 0, bytesOut: 120 })
   * ```
   */
  observeRequest(observation: RequestObservation): void {
    const { operation } = observation
    this.requests.inc({ operation, status: String(observation.status) })
    this.duration.observe({ operation }, observation.seconds)
    if (observation.bytesIn > 0) this.bytesIn.inc({ operation }, observation.bytesIn)
    if (observation.bytesOut > 0) this.bytesOut.inc({ operation }, observation.bytesOut)
  }

  /**
   * Counts bytes of a response body as they are sent.
   *
   * @example
   * ```ts
   * metrics.observeResponseBytes('listFiles', chunk.byteLength)
   * ```
   */
  observeResponseBytes(operation: string, bytes: number): void {
    if (bytes > 0) this.bytesOut.inc({ operation }, bytes)
  }

  /**
   * Counts the error behind a 5xx answer by where it came from: the blob store, or the database (its driver's
   * errors, and the store errors that answer 5xx). Other errors are counted by `botshelf_requests_total` alone.
   *
   * @example
   * ```ts
   * metrics.observeFailure(new BlobError('BLOB_NOT_FOUND', 'content missing'))
   * ```
   */
  observeFailure(error: unknown): void {
    if (error instanceof BlobError) this.blobErrors.inc()
    else if (isDatabaseError(error)) this.databaseErrors.inc()
  }

  /**
   * Counts a background job run that ended, from the job runner's log line.
   *
   * @example
   * ```ts
   * metrics.observeJob('job completed', { kind: 'tables.import' })
   * ```
   */
  observeJob(message: string, fields: Record<string, unknown>): void {
    const kind = typeof fields.kind === 'string' ? fields.kind : 'unknown'
    if (message === 'job completed') this.jobRuns.inc({ kind, outcome: 'completed' })
    else if (message === 'job failed') this.jobRuns.inc({ kind, outcome: fields.state === 'dead' ? 'dead' : 'retried' })
  }

  /**
   * The metrics in the Prometheus text format.
   *
   * @example
   * ```ts
   * return new Response(await metrics.render(), { headers: { 'content-type': metrics.contentType } })
   * ```
   */
  async render(): Promise<string> {
    return this.registry.metrics()
  }

  /** The content type of `render()`'s text. */
  get contentType(): string {
    return this.registry.contentType
  }
}

/** The errors of a database driver (better-sqlite3, postgres), and store errors of the hierarchy that answer 5xx. */
function isDatabaseError(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  if (error instanceof BotshelfError) return error.status >= 500 && /Store/.test(error.name)
  return /^(SqliteError|PostgresError)$/.test(error.name) || /SQLITE_|database/i.test(String((error as { code?: unknown }).code ?? ''))
}
