/**
 * States of a queued job: `pending` (waiting for `runAt`), `running` (claimed under a lease), `completed`,
 * `dead` (failed `maxAttempts` times, or failed with `retry: false`; kept for inspection: a dead letter).
 */
export const jobStates = ['pending', 'running', 'completed', 'dead'] as const

/** A state of a queued job. */
export type JobState = (typeof jobStates)[number]

/** A job of the durable queue. Payloads are JSON. Times are ISO 8601 strings from the backend's clock. */
export interface JobRecord {
  id: string
  /** What the job does (`tables.import`, `files.expire`, ...); workers pick handlers by kind. */
  kind: string
  payload: unknown
  state: JobState
  /** Claims so far; the first run is attempt 1. */
  attempts: number
  maxAttempts: number
  /** While pending or running, at most one job of a kind has a given dedupe key. */
  dedupeKey: string | null
  /** Not claimed before this time (backoff after a failure, or a scheduled job). */
  runAt: string
  /** The worker holding the lease while running. */
  leaseOwner: string | null
  /** A running job whose lease passed this time may be claimed by another worker. */
  leaseExpiresAt: string | null
  lastError: string | null
  createdAt: string
  updatedAt: string
  /** When it became `completed` or `dead`. */
  finishedAt: string | null
}

/** What to queue. */
export interface EnqueueInput {
  kind: string
  payload?: unknown
  /** A pending or running job of the same kind with this key is returned instead of a new one. */
  dedupeKey?: string
  /** Earliest start (default: now). */
  runAt?: Date
  /** Attempts before the job goes `dead` (default 5). */
  maxAttempts?: number
}

/** How a worker claims. */
export interface ClaimInput {
  /** A name unique to this worker (process and slot): the lease holder. */
  workerId: string
  /** Only these kinds (default: any). */
  kinds?: ReadonlyArray<string>
  /** Lease length in milliseconds; the worker heartbeats before it passes. */
  leaseMs: number
  /**
   * Jobs whose payload's `botId` is one of these are passed over (jobs without a `botId` never are): the runner names
   * the bots that already hold their share of its slots, so one bot's imports cannot hold every slot (decision 1463).
   */
  skipBots?: ReadonlyArray<string>
}

/** How a failure is handled. */
export interface FailInput {
  error: string
  /** `false`: dead at once (the input is bad; a retry cannot help). Default: retry with backoff. */
  retry?: boolean
}

/** Filter of `list`. */
export interface JobListQuery {
  state?: JobState
  kind?: string
  /** Default 50, at most 500. */
  limit?: number
}
