// One file, not date-fns' index (slow to load on Node 22 and 24; decision 1451).
import { addDays } from 'date-fns/addDays'
import { filesLimits } from 'botshelf/api'
import { ServiceError } from '../http/service-error.js'

/**
 * Checks an `expiresAt` (already a valid ISO date-time) against the rules of docs/wire-format.md §5: in the
 * future and at most 90 days ahead. Returns it normalized to UTC (`...Z`), the form the store compares.
 *
 * @example
 * ```ts
 * checkExpiresAt('2026-12-01T10:00:00+02:00', new Date('2026-11-22T00:00:00Z')) // '2026-12-01T08:00:00.000Z'
 * ```
 */
export function checkExpiresAt(value: string, now: Date): string {
  const date = new Date(value)
  const latest = addDays(now, filesLimits.expiresAtMaxDays)
  if (date.getTime() <= now.getTime()) {
    throw new ServiceError('InvalidPayload', `expiresAt: expected a date in the future, received ${JSON.stringify(value)} (now is ${now.toISOString()})`)
  }
  if (date.getTime() > latest.getTime()) {
    throw new ServiceError(
      'InvalidPayload',
      `expiresAt: expected at most ${filesLimits.expiresAtMaxDays} days ahead (${latest.toISOString()}), received ${JSON.stringify(value)}`,
    )
  }
  return date.toISOString()
}
