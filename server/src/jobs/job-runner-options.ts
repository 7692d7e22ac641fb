import type { Clock, Logger, LogLevel } from 'botshelf/api'
import type { JobQueue } from '../store/jobs/index.js'
import type { JobDefinition } from './job-definition.js'

/** Severity of a runner log line: the one `LogLevel` (the name stays for code that imports it). */
export type JobLogLevel = LogLevel

/**
 * Where the runner writes its lines: `debug` on claim, `info` on completion, `warn` on failures and lost leases,
 * `error` when the queue itself fails. The service's logger has this shape.
 *
 * @example
 * ```ts
 * const logger: JobRunnerLogger = { log: (level, message, fields) => console.log(level, message, fields) }
 * ```
 */
export type JobRunnerLogger = Pick<Logger, 'log'>

/** Options of `new JobRunner(...)`. */
export interface JobRunnerOptions<S = unknown> {
  /**
   * The durable queue it claims from, reports to and renews leases on.
   * @example `queue: backend.jobs`
   */
  queue: JobQueue
  /**
   * One definition per job kind (`defineJob`); the runner claims only these kinds.
   * @example `jobs: [importTableJob, expireFilesJob(60_000)]`
   */
  jobs: ReadonlyArray<JobDefinition<any, S>>
  /**
   * What every handler gets as `context.services`, read when a job starts (so it may be set after the runner is made).
   * @example `services: () => appServices`
   */
  services?: () => S
  /**
   * Most jobs running at once in this process. Default 2.
   * @example `concurrency: 4`
   */
  concurrency?: number
  /**
   * Most of those slots that jobs of one bot (a payload's `botId`) may hold at once, so one bot's imports cannot keep
   * the other bots' jobs waiting (decision 1463). Default `concurrency - 1` (at least 1); jobs without a `botId`
   * (sweeps) are not counted.
   * @example `slotsPerBot: 2`
   */
  slotsPerBot?: number
  /**
   * Lease taken on each claim, in milliseconds; renewed every third of it while the handler runs, so a crashed
   * process's jobs are claimed again this long after its last renewal. Default 30 000.
   * @example `leaseMs: 60_000`
   */
  leaseMs?: number
  /**
   * Longest wait between two looks at the queue when idle, in milliseconds (jobs queued by another process, or
   * without `wake()`). It looks sooner when a known job falls due sooner. Default 500.
   * @example `pollMs: 1_000`
   */
  pollMs?: number
  /**
   * How long `stop()` lets running handlers finish before it aborts their signals and leaves their jobs to lease
   * expiry, in milliseconds. Default 10 000; 0 aborts them at once.
   * @example `shutdownGraceMs: 30_000`
   */
  shutdownGraceMs?: number
  /**
   * Where claims, completions and failures are logged. Default: nowhere.
   * @example `logger: { log: (level, message, fields) => console.log(level, message, fields) }`
   */
  logger?: JobRunnerLogger
  /**
   * The clock that says when a known job falls due; pass the backend's clock. Default: the wall clock.
   * @example `now: backend.now`
   */
  now?: Clock
  /**
   * First part of the worker ids (`<workerName>:<pid>:<slot>`) that hold the leases. Default: the host name.
   * @example `workerName: 'botshelf-1'`
   */
  workerName?: string
}
