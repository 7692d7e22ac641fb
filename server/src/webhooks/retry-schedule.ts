import { BotshelfError } from 'botshelf/api'

/** The default retry schedule: `5s,30s,2m,10m,30m,1h,3h,6h,12h,24h` (ten retries over about two days). */
export const DEFAULT_WEBHOOK_RETRIES = '5s,30s,2m,10m,30m,1h,3h,6h,12h,24h'

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/**
 * Reads a retry schedule: comma-separated delays with a unit (`ms`, `s`, `m`, `h`, `d`), each the wait before
 * the next attempt; an empty string means no retry. Throws `BotshelfError` `INVALID_WEBHOOK_RETRIES` naming the
 * bad part.
 *
 * @example
 * ```ts
 * parseRetrySchedule('5s,30s,2m') // [5000, 30000, 120000]
 * ```
 */
export function parseRetrySchedule(text: string): number[] {
  if (text.trim() === '') return []
  return text.split(',').map((part) => {
    const match = /^\s*(\d+(?:\.\d+)?)(ms|s|m|h|d)\s*$/.exec(part)
    if (!match) {
      throw new BotshelfError(
        'InvalidPayload',
        'INVALID_WEBHOOK_RETRIES',
        `webhook retries: expected comma-separated delays like 5s,30s,2m,1h (units ms, s, m, h, d), received ${JSON.stringify(part.trim())} in ${JSON.stringify(text)}`,
      )
    }
    return Math.round(Number(match[1]) * UNITS[match[2]!]!)
  })
}
