import type { Clock } from '../clock/index.js'
import { passesThreshold, type LogThreshold } from './log-level.js'
import type { LogFields, Logger } from './logger.js'
import { createRecordLogger, type LogRecord } from './record-logger.js'

/** Options of `createJsonLogger`. */
export interface JsonLoggerOptions {
  /**
   * Where each JSON line goes (without the trailing newline added for you). Default: standard error.
   * @example `write: (line) => process.stdout.write(`${line}\n`)`
   */
  write?: (line: string) => void
  /**
   * Lowest level written (`silent`: none). Default `info`.
   * @example `level: 'debug'`
   */
  level?: LogThreshold
  /**
   * Fields added to every line.
   * @example `bindings: { service: 'bot' }`
   */
  bindings?: LogFields
  /**
   * Clock for the `time` field. Default: the real time.
   * @example `now: () => new Date('2024-01-01T00:00:00Z')`
   */
  now?: Clock
}

function writeToStderr(line: string): void {
  const proc = (globalThis as { process?: { stderr?: { write(chunk: string): unknown } } }).process
  if (proc?.stderr) proc.stderr.write(`${line}\n`)
  else console.error(line)
}

function safeStringify(record: LogRecord): string {
  try {
    return JSON.stringify(record, (_key, value: unknown) =>
      value instanceof Error ? { name: value.name, message: value.message } : typeof value === 'bigint' ? String(value) : value,
    )
  } catch {
    return JSON.stringify({ time: record.time, level: record.level, msg: record.msg, logError: 'unserializable fields' })
  }
}

/**
 * The one JSON logger: one object per line (`{"time","level","msg",...bindings,...fields}`), to standard error by
 * default. The runtime's default logger; the service writes it to standard output.
 *
 * @example
 * ```ts
 * const logger = createJsonLogger({ level: 'debug' })
 * logger.child({ eventId: 'evt_1' }).info('received')
 * // {"time":"2024-05-01T10:00:00.000Z","level":"info","msg":"received","eventId":"evt_1"}
 * ```
 */
export function createJsonLogger(options: JsonLoggerOptions = {}): Logger {
  const write = options.write ?? writeToStderr
  const threshold = options.level ?? 'info'
  const logger = createRecordLogger((record) => write(safeStringify(record)), options.now, (level) => passesThreshold(level, threshold))
  return options.bindings ? logger.child(options.bindings) : logger
}
