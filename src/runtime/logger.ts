/** Severity of a log line. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

/** Structured fields attached to a log line. */
export type LogFields = Record<string, unknown>

/**
 * What hooks and actions log with. The runtime hands each handler a logger bound to the event id and the
 * hook or action name (`child`). Bring your own (pino, winston, ...) by wrapping it in this shape.
 *
 * @example
 * ```ts
 * logger.info('tagged conversation', { topic: 'billing' })
 * ```
 */
export interface Logger {
  debug(message: string, fields?: LogFields): void
  info(message: string, fields?: LogFields): void
  warn(message: string, fields?: LogFields): void
  error(message: string, fields?: LogFields): void
  /** A logger that adds `bindings` to every line. */
  child(bindings: LogFields): Logger
}

/** One line as the JSON logger writes it. */
export interface LogRecord extends LogFields {
  level: LogLevel
  time: string
  msg: string
}

/** Options of `createJsonLogger`. */
export interface JsonLoggerOptions {
  /**
   * Where each JSON line goes (without the trailing newline added for you). Default: standard error.
   * @example `write: (line) => lines.push(line)`
   */
  write?: (line: string) => void
  /**
   * Lowest level written. Default `info`.
   * @example `level: 'debug'`
   */
  level?: LogLevel
  /**
   * Fields added to every line.
   * @example `bindings: { service: 'bot' }`
   */
  bindings?: LogFields
  /**
   * Clock for the `time` field. Default: the real time.
   * @example `now: () => new Date('2024-01-01T00:00:00Z')`
   */
  now?: () => Date
}

const rank: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40 }

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
    return JSON.stringify({ level: record.level, time: record.time, msg: record.msg, logError: 'unserializable fields' })
  }
}

/**
 * A logger writing one JSON object per line (`{"level","time","msg",...bindings,...fields}`), to standard error
 * by default. The runtime's default logger.
 *
 * @example
 * ```ts
 * const logger = createJsonLogger({ level: 'debug' })
 * logger.child({ eventId: 'evt_1' }).info('received')
 * // {"level":"info","time":"2024-05-01T10:00:00.000Z","msg":"received","eventId":"evt_1"}
 * ```
 */
export function createJsonLogger(options: JsonLoggerOptions = {}): Logger {
  const write = options.write ?? writeToStderr
  const min = rank[options.level ?? 'info']
  const logger = createRecordLogger((record) => write(safeStringify(record)), options.now, (level) => rank[level] >= min)
  return options.bindings ? logger.child(options.bindings) : logger
}

/**
 * The shared shape of every logger here: builds each record (`level`, `time`, `msg`, then the bindings and fields,
 * which can never overwrite the head) and hands it to `sink`. `child` adds bindings. Not part of the public API:
 * the JSON logger writes the records, the testing kit's memory logger keeps them.
 *
 * @example
 * ```ts
 * const records: LogRecord[] = []
 * createRecordLogger((record) => records.push(record)).child({ hook: 'tag' }).info('done')
 * ```
 */
export function createRecordLogger(
  sink: (record: LogRecord) => void,
  now: () => Date = () => new Date(),
  enabled: (level: LogLevel) => boolean = () => true,
): Logger {
  const make = (bindings: LogFields): Logger => {
    const log =
      (level: LogLevel) =>
      (message: string, fields?: LogFields): void => {
        if (!enabled(level)) return
        const head = { level, time: now().toISOString(), msg: message }
        // Head first for readability; assigned again last so fields cannot overwrite it.
        sink(Object.assign({ ...head }, bindings, fields, head))
      }
    return {
      debug: log('debug'),
      info: log('info'),
      warn: log('warn'),
      error: log('error'),
      child: (more) => make({ ...bindings, ...more }),
    }
  }
  return make({})
}
