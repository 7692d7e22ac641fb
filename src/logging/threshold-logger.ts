import { passesThreshold, type LogThreshold } from './log-level.js'
import { toLogger, type Logger, type LoggerLike } from './logger.js'

/**
 * A logger that passes on the lines at `threshold` or more severe and drops the others (its children too).
 *
 * @example
 * ```ts
 * const logger = withLogThreshold(createJsonLogger(), 'warn') // info lines dropped
 * ```
 */
export function withLogThreshold(like: LoggerLike, threshold: LogThreshold): Logger {
  const inner = toLogger(like)
  if (threshold === 'debug') return inner
  return {
    log: (level, message, fields) => {
      if (passesThreshold(level, threshold)) inner.log(level, message, fields)
    },
    debug: (message, fields) => {
      if (passesThreshold('debug', threshold)) inner.debug(message, fields)
    },
    info: (message, fields) => {
      if (passesThreshold('info', threshold)) inner.info(message, fields)
    },
    warn: (message, fields) => {
      if (passesThreshold('warn', threshold)) inner.warn(message, fields)
    },
    error: (message, fields) => {
      if (passesThreshold('error', threshold)) inner.error(message, fields)
    },
    child: (bindings) => withLogThreshold(inner.child(bindings), threshold),
  }
}
