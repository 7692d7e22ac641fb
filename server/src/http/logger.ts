/** Severity of a log line, least severe first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

/**
 * Where the service writes its structured log lines. Each call is one JSON line: `msg` plus fields.
 * Pass your own to `createApp({ logger })` to route lines elsewhere (pino, a test array, ...).
 *
 * @example
 * ```ts
 * const lines: unknown[] = []
 * const logger: Logger = { log: (level, msg, fields) => lines.push({ level, msg, ...fields }) }
 * ```
 */
export interface Logger {
  log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void
}

/**
 * A logger writing one JSON object per line (`{"time","level","msg",...fields}`) to a stream.
 *
 * @example
 * ```ts
 * const logger = createJsonLogger(process.stderr)
 * logger.log('info', 'request', { method: 'GET', path: '/v1/files', status: 200 })
 * ```
 */
export function createJsonLogger(stream: { write(line: string): unknown } = process.stdout): Logger {
  return {
    log(level, msg, fields) {
      stream.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`)
    },
  }
}

/**
 * A logger that drops every line (tests, embedding where logs are unwanted).
 *
 * @example
 * ```ts
 * createApp({ memory: true, logger: silentLogger })
 * ```
 */
export const silentLogger: Logger = { log() {} }
