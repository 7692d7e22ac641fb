import type { z } from 'zod'
import type { JobRecord } from '../store/jobs/index.js'
import { PermanentJobError } from './permanent-job-error.js'

/** How often a job is tried before it is buried (`dead`); the queue's default is 5 attempts. */
export interface JobRetryPolicy {
  /** Attempts in all, the first included (default 5). */
  readonly maxAttempts?: number
}

/**
 * What enqueues a job: its kind, the schema of its payload and its retry policy. A {@link JobDefinition} is one; a
 * job whose handler is made from options (an embedder, an interval) exports this part for the code that queues it.
 *
 * @example
 * ```ts
 * export const expireFilesSpec = { kind: 'files.expire', payload: z.object({}) } satisfies JobSpec<Record<string, never>>
 * ```
 */
export interface JobSpec<P> {
  /** The job kind (`tables.import`, `files.expire`, ...): one definition per kind in a runner. */
  readonly kind: string
  /** Checks the payload when it is queued and again before it runs (the queue stores JSON). */
  readonly payload: z.ZodType<P>
  readonly retry?: JobRetryPolicy
}

/** What a handler runs with: its queued job, the payload its schema read, a signal, the attempt and the services. */
export interface JobContext<P = unknown, S = unknown> {
  readonly job: JobRecord
  readonly payload: P
  /**
   * Aborted when the runner lost the job's lease (another worker may be running it) or stopped before the handler
   * finished. Pass it to fetches and check it between steps; work done after it fires is not recorded.
   */
  readonly signal: AbortSignal
  /** This run's attempt number: 1 on the first run, then one more per retry or crash. */
  readonly attempt: number
  /** What the runner was given to share with every handler (the app's services). */
  readonly services: S
}

/**
 * One background job, declared once: its kind, payload schema, retry policy and handler. Resolving completes the
 * job; throwing retries it with backoff, or buries it at once with `PermanentJobError`. Delivery is at least once:
 * after a crash the same job runs again, so make the work idempotent.
 */
export interface JobDefinition<P = unknown, S = unknown> extends JobSpec<P> {
  run(context: JobContext<P, S>): Promise<void>
}

/**
 * Declares a job (Supabase Storage style: one definition per job), checking its kind and handler; the runner runs
 * it and `enqueueJob` queues it with a payload its schema types.
 *
 * @example
 * ```ts
 * export const importTableJob = defineJob({
 *   kind: 'tables.import',
 *   payload: z.object({ tableJobId: z.string() }),
 *   async run({ payload, signal }) { await runImport(payload.tableJobId, signal) },
 * })
 * ```
 */
export function defineJob<P, S = unknown>(definition: JobDefinition<P, S>): JobDefinition<P, S> {
  if (typeof definition.kind !== 'string' || definition.kind === '') throw new TypeError('defineJob: kind must be a non-empty string')
  if (typeof definition.run !== 'function') throw new TypeError(`defineJob(${definition.kind}): run must be a function`)
  return definition
}

/**
 * Reads a queued job's payload with its schema; one that does not fit can never run, so it is a `PermanentJobError`.
 *
 * @example
 * ```ts
 * const payload = readPayload(importTableJob, job.payload)
 * ```
 */
export function readPayload<P>(spec: JobSpec<P>, value: unknown): P {
  const parsed = spec.payload.safeParse(value)
  if (parsed.success) return parsed.data
  throw new PermanentJobError(`the payload of a ${spec.kind} job does not fit its schema: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`)
}
