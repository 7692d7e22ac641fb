import type { LogLevel } from './log-level.js'

/** Structured fields attached to a log line. */
export type LogFields = Record<string, unknown>

/**
 * The one logger of botshelf: what hooks and actions log with, and where the service writes its request log and
 * errors. `log(level, ...)` suits code that computes the level (the request log), the level methods the rest; `child`
 * adds bindings to every line (the runtime binds the event id and the hook or action name).
 *
 * @example
 * ```ts
 * logger.info('tagged conversation', { topic: 'billing' })
 * logger.log('warn', 'request', { status: 200, ms: 1500 })
 * ```
 */
export interface Logger {
  log(level: LogLevel, message: string, fields?: LogFields): void
  debug(message: string, fields?: LogFields): void
  info(message: string, fields?: LogFields): void
  warn(message: string, fields?: LogFields): void
  error(message: string, fields?: LogFields): void
  /** A logger that adds `bindings` to every line. */
  child(bindings: LogFields): Logger
}

/**
 * What a `logger` option accepts: a whole `Logger`, or only part of one, as the options have accepted so far:
 * only `log(level, message, fields)` (the service's `createApp({ logger })`), or only the level methods and `child`
 * (the runtime's `createRuntime({ logger })`; wrap pino, winston, ... in this shape). `toLogger` completes it.
 *
 * @example
 * ```ts
 * const lines: unknown[] = []
 * const logger: LoggerLike = { log: (level, msg, fields) => lines.push({ level, msg, ...fields }) }
 * ```
 */
export type LoggerLike = Logger | Pick<Logger, 'log'> | LevelLogger

/** A logger with the level methods and `child` only (`child` may give back any `LoggerLike`). */
export interface LevelLogger extends Pick<Logger, LogLevel> {
  child(bindings: LogFields): LoggerLike
}

const levels: readonly LogLevel[] = ['debug', 'info', 'warn', 'error']

/**
 * The whole `Logger` of a `LoggerLike`: itself when it is one, else the missing methods written with the ones
 * it has (a `log`-only logger gets `child` by merging the bindings into each line's fields).
 *
 * @example
 * ```ts
 * const logger = toLogger({ log: (level, msg, fields) => lines.push({ level, msg, ...fields }) })
 * logger.child({ jobId: 'job_1' }).warn('retrying') // lines: [{ level: 'warn', msg: 'retrying', jobId: 'job_1' }]
 * ```
 */
export function toLogger(like: LoggerLike): Logger {
  const partial = like as Partial<Logger>
  const hasLevels = levels.every((level) => typeof partial[level] === 'function') && typeof partial.child === 'function'
  if (hasLevels && typeof partial.log === 'function') return like as Logger
  if (hasLevels) return fromLevelLogger(like as LevelLogger)
  return fromLog(like as Pick<Logger, 'log'>, undefined)
}

function fromLevelLogger(inner: LevelLogger): Logger {
  return {
    log: (level, message, fields) => inner[level](message, fields),
    debug: (message, fields) => inner.debug(message, fields),
    info: (message, fields) => inner.info(message, fields),
    warn: (message, fields) => inner.warn(message, fields),
    error: (message, fields) => inner.error(message, fields),
    child: (bindings) => toLogger(inner.child(bindings)),
  }
}

function fromLog(inner: Pick<Logger, 'log'>, bindings: LogFields | undefined): Logger {
  // Without bindings the fields go through as given: the request log's hot path adds no copy.
  const log = bindings ? (level: LogLevel, message: string, fields?: LogFields) => inner.log(level, message, { ...bindings, ...fields }) : inner.log.bind(inner)
  return {
    log,
    debug: (message, fields) => log('debug', message, fields),
    info: (message, fields) => log('info', message, fields),
    warn: (message, fields) => log('warn', message, fields),
    error: (message, fields) => log('error', message, fields),
    child: (more) => fromLog(inner, { ...bindings, ...more }),
  }
}
