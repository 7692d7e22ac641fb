import { systemClock, type Clock } from '../clock/index.js'
import type { LogLevel } from './log-level.js'
import type { LogFields, Logger } from './logger.js'

/** One line as the loggers build it: `time`, `level`, `msg`, then the bindings and fields. */
export interface LogRecord extends LogFields {
  time: string
  level: LogLevel
  msg: string
}

/**
 * The shared body of every logger here: builds each record (`time`, `level`, `msg`, then the bindings and fields,
 * which can never overwrite the head) and hands it to `sink`. `child` adds bindings. The JSON logger writes the
 * records, the pretty logger prints them, the testing kit's memory logger keeps them.
 *
 * @example
 * ```ts
 * const records: LogRecord[] = []
 * createRecordLogger((record) => records.push(record)).child({ hook: 'tag' }).info('done')
 * ```
 */
export function createRecordLogger(sink: (record: LogRecord) => void, now: Clock = systemClock, enabled: (level: LogLevel) => boolean = () => true): Logger {
  const make = (bindings: LogFields | undefined): Logger => {
    const log = (level: LogLevel, message: string, fields?: LogFields): void => {
      if (!enabled(level)) return
      const head = { time: now().toISOString(), level, msg: message }
      // Head first for readability; assigned again last so bindings and fields cannot overwrite it.
      sink(Object.assign({ ...head }, bindings, fields, head))
    }
    return {
      log,
      debug: (message, fields) => log('debug', message, fields),
      info: (message, fields) => log('info', message, fields),
      warn: (message, fields) => log('warn', message, fields),
      error: (message, fields) => log('error', message, fields),
      child: (more) => make({ ...bindings, ...more }),
    }
  }
  return make(undefined)
}

/**
 * A logger that drops every line (tests, embedding where logs are unwanted).
 *
 * @example
 * ```ts
 * createApp({ memory: true, logger: silentLogger })
 * ```
 */
export const silentLogger: Logger = {
  // Plain no-ops, not a record logger that filters everything: the benches' hot paths log through it.
  log: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
}
