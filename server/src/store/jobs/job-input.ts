import type { ClaimInput, EnqueueInput, JobListQuery } from './types.js'

/** Attempts before a job goes `dead` unless `maxAttempts` says otherwise. */
export const DEFAULT_MAX_ATTEMPTS = 5

/** What `list` returns without a `limit`, and the most it returns whatever the limit. */
export const JOB_LIST_LIMITS = { default: 50, max: 500 } as const

/** The error of a job whose lease expired on its last attempt (its worker stopped or crashed each time). */
export const LAST_LEASE_EXPIRED = 'the lease expired on the last attempt: the worker stopped or crashed'

/**
 * Refuses a lease length no backend could honour.
 *
 * @example
 * ```ts
 * requirePositiveMs('heartbeat: leaseMs', 30_000) // passes; 0 or NaN throws RangeError
 * ```
 */
export function requirePositiveMs(name: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name}: expected a positive number of milliseconds, received ${String(value)}`)
}

/**
 * Checks an enqueue the same way on every backend; returns its `maxAttempts` (default 5).
 *
 * @example
 * ```ts
 * const maxAttempts = checkEnqueueInput({ kind: 'files.expire' }) // 5
 * ```
 */
export function checkEnqueueInput(input: EnqueueInput): number {
  if (typeof input.kind !== 'string' || input.kind === '') throw new RangeError('enqueue: kind must be a non-empty string')
  const maxAttempts = input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError(`enqueue: maxAttempts must be an integer of at least 1, received ${String(maxAttempts)}`)
  if (input.runAt !== undefined && Number.isNaN(input.runAt.getTime())) throw new RangeError('enqueue: runAt is an invalid date')
  return maxAttempts
}

/**
 * Checks a claim the same way on every backend.
 *
 * @example
 * ```ts
 * checkClaimInput({ workerId: 'host:42:0', leaseMs: 30_000 })
 * ```
 */
export function checkClaimInput(input: ClaimInput): void {
  requirePositiveMs('claim: leaseMs', input.leaseMs)
  if (typeof input.workerId !== 'string' || input.workerId === '') throw new RangeError('claim: workerId must be a non-empty string')
}

/**
 * The number of jobs a `list` returns: the asked limit (default 50) capped at 500; a limit below 1 is refused.
 *
 * @example
 * ```ts
 * listLimit({ limit: 10_000 }) // 500
 * ```
 */
export function listLimit(query: JobListQuery): number {
  const limit = query.limit ?? JOB_LIST_LIMITS.default
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`list: limit must be a positive integer, received ${String(limit)}`)
  return Math.min(limit, JOB_LIST_LIMITS.max)
}
