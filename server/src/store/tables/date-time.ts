const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/
const NO_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?$/i

/**
 * Tells whether a string is an ISO 8601 date-time with a zone (`2026-01-02T03:04:05Z`, `...+02:00`).
 *
 * @example
 * ```ts
 * isIsoDateTime('2026-01-02T03:04:05.000Z') // true
 * isIsoDateTime('2026-01-02') // false
 * ```
 */
export function isIsoDateTime(value: unknown): value is string {
  return typeof value === 'string' && ISO_DATE_TIME.test(value) && !Number.isNaN(new Date(value).getTime())
}

/**
 * Normalizes a date-time value to ISO UTC (`2026-01-02T03:04:05.000Z`), or `undefined` when it is not one.
 * Accepts an ISO 8601 date-time with a zone, one without a zone (read as UTC), or a date alone (UTC midnight),
 * as in the official docs' `{ createdAt: { $lt: '2026-01-01' } }`.
 *
 * @example
 * ```ts
 * normalizeDateTime('2026-01-01') // '2026-01-01T00:00:00.000Z'
 * normalizeDateTime('2026-01-01T10:00+02:00') // '2026-01-01T08:00:00.000Z'
 * normalizeDateTime('yesterday') // undefined
 * ```
 */
export function normalizeDateTime(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  let text = value
  if (DATE_ONLY.test(text)) text = `${text}T00:00:00Z`
  else if (NO_ZONE.test(text)) text = `${text}Z`
  if (!isIsoDateTime(text)) return undefined
  return new Date(text).toISOString()
}
