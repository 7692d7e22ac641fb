/**
 * Reads a `Retry-After` header (seconds, or an HTTP date) as milliseconds to wait; `undefined` when
 * absent or unreadable.
 *
 * @example
 * ```ts
 * parseRetryAfter('2') // 2000
 * parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:58 GMT')) // 2000
 * ```
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  const date = Date.parse(trimmed)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now)
}

/**
 * How long to wait before retry number `attempt` (0 for the first retry): the server's `Retry-After`
 * when given, otherwise `minDelayMs * 2^attempt`; never more than `maxDelayMs`.
 *
 * @example
 * ```ts
 * retryDelay({ attempt: 2, minDelayMs: 100, maxDelayMs: 10_000 }) // 400
 * retryDelay({ attempt: 0, minDelayMs: 100, maxDelayMs: 10_000, retryAfterMs: 3_000 }) // 3000
 * ```
 */
export function retryDelay(input: { attempt: number; minDelayMs: number; maxDelayMs: number; retryAfterMs?: number | undefined }): number {
  const wanted = input.retryAfterMs ?? input.minDelayMs * 2 ** input.attempt
  return Math.min(Math.max(0, wanted), input.maxDelayMs)
}
