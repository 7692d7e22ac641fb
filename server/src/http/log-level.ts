import type { LogLevel } from './logger.js'

// The levels and thresholds are the light package's; the request's level is the service's rule.
export { logThresholds, parseLogThreshold, withLogThreshold, type LogThreshold } from 'botshelf/api'

/**
 * The level of a request's log line: `error` for a 5xx answer, `warn` for a slow one (at least `slowMs`;
 * 0 turns slow detection off), `info` otherwise, 4xx included (a client's mistake is not the service's).
 *
 * @example
 * ```ts
 * requestLogLevel(503, 12, 1000) // 'error'
 * requestLogLevel(200, 1500, 1000) // 'warn'
 * ```
 */
export function requestLogLevel(status: number, ms: number, slowMs: number): LogLevel {
  if (status >= 500) return 'error'
  if (slowMs > 0 && ms >= slowMs) return 'warn'
  return 'info'
}
