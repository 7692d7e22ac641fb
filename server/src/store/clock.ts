/**
 * The one clock of the service: every timestamp the stores, the job queue and the routes write comes from the
 * clock the backend was opened with, so a test that passes a fake clock controls all of them at once.
 *
 * @example
 * ```ts
 * let t = new Date('2026-01-01T00:00:00Z')
 * const clock: Clock = () => t
 * ```
 */
export type Clock = () => Date

/**
 * The wall clock.
 *
 * @example
 * ```ts
 * openSqliteBackend({ memory: true, now: systemClock })
 * ```
 */
export const systemClock: Clock = () => new Date()
