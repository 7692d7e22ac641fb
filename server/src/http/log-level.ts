import type { LogLevel, Logger } from './logger.js'

/** The lowest severity a logger lets through, or `silent` for none. */
export type LogThreshold = LogLevel | 'silent'

/** Every threshold `--log-level` and `BOTSHELF_LOG_LEVEL` accept, least severe first. */
export const logThresholds: readonly LogThreshold[] = ['debug', 'info', 'warn', 'error', 'silent']

const rank: Record<LogThreshold, number> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 }

/**
 * Reads a log threshold (`debug`, `info`, `warn`, `error`, `silent`, any case); `undefined` when it is none of them.
 *
 * @example
 * ```ts
 * parseLogThreshold('WARN') // 'warn'
 * parseLogThreshold('loud') // undefined
 * ```
 */
export function parseLogThreshold(value: string): LogThreshold | undefined {
  const lower = value.trim().toLowerCase()
  return (logThresholds as readonly string[]).includes(lower) ? (lower as LogThreshold) : undefined
}

/**
 * A logger that passes on the lines at `threshold` or more severe and drops the others.
 *
 * @example
 * ```ts
 * const logger = withLogThreshold(createJsonLogger(), 'warn') // info lines dropped
 * ```
 */
export function withLogThreshold(logger: Logger, threshold: LogThreshold): Logger {
  if (threshold === 'debug') return logger
  return {
    log(level, msg, fields) {
      if (rank[level] >= rank[threshold]) logger.log(level, msg, fields)
    },
  }
}

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
