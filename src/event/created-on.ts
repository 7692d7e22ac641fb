// One file each, not date-fns' index: on Node 22 and 24 the index's ~250 modules each read date-fns' 200 kB
// package.json scope again, seconds at start-up (decision 1451).
import { isValid } from 'date-fns/isValid'
import { parseISO } from 'date-fns/parseISO'
import { z } from 'zod'
import { readCommonIsoDateTime } from './iso-date-fast-path.js'

/**
 * An ISO 8601 date-time with an explicit offset: `2024-05-01T10:20:30Z`, `2024-05-01T12:20:30.123+02:00`,
 * `2024-05-01T12:20:30+0200`. A naked local time would depend on the machine's time zone, so it is refused.
 */
const ISO_DATE_TIME_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/i

const EXPECTED = 'an ISO 8601 date-time with an offset (2024-05-01T10:20:30Z) or a Date'

/**
 * Parses an event timestamp (`createdOn`): an ISO 8601 string with any valid offset, or a `Date`.
 * Returns `undefined` when the value is not a valid date.
 *
 * @example
 * ```ts
 * parseEventDate('2024-05-01T12:00:00+02:00')?.toISOString() // '2024-05-01T10:00:00.000Z'
 * parseEventDate('yesterday') // undefined
 * ```
 */
export function parseEventDate(value: unknown): Date | undefined {
  if (typeof value !== 'string') return value instanceof Date && isValid(value) ? new Date(value.getTime()) : undefined
  // The common shapes are read (and their every character checked) by position; anything else goes to the
  // pattern and the general parser.
  const fast = readCommonIsoDateTime(value)
  if (fast !== undefined) return Number.isNaN(fast) ? undefined : new Date(fast)
  if (!ISO_DATE_TIME_WITH_OFFSET.test(value)) return undefined
  const parsed = parseISO(value)
  return Number.isNaN(parsed.getTime()) ? undefined : parsed
}

/**
 * Zod schema of `createdOn`: input `string | Date`, output `Date`. An invalid value is reported with the
 * field's path, what was expected and what was received.
 *
 * @example
 * ```ts
 * CreatedOnSchema.parse('2024-05-01T10:20:30Z') // Date
 * ```
 */
export const CreatedOnSchema = z.union([z.string(), z.date()]).transform((value, ctx) => {
  const date = parseEventDate(value)
  if (date) return date
  ctx.issues.push({ code: 'custom', message: `expected ${EXPECTED}, received ${describe(value)}`, input: value })
  return z.NEVER
})

function describe(value: string | Date): string {
  if (value instanceof Date) return 'Invalid Date'
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)
}
