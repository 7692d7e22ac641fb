import type { Clock } from 'botshelf/api'

/**
 * Reads an HTTP `Retry-After` header (RFC 9110 §10.2.3): a number of seconds, or an HTTP date. Returns the wait in
 * milliseconds, or `undefined` when the header is absent or unreadable (the caller then uses its own backoff).
 *
 * @example
 * ```ts
 * retryAfterMs('2', () => new Date()) // 2000
 * retryAfterMs('Wed, 21 Oct 2026 07:28:00 GMT', () => new Date('2026-10-21T07:27:30Z')) // 30000
 * ```
 */
export function retryAfterMs(header: string | null | undefined, now: Clock): number | undefined {
  if (header === null || header === undefined) return undefined
  const text = header.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000)
  const date = Date.parse(text)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now().getTime())
}
