import pc from 'picocolors'
import { createRecordLogger, systemClock, type Clock, type LogLevel, type Logger } from 'botshelf/api'

/** Options of `createPrettyLogger`. */
export interface PrettyLoggerOptions {
  /**
   * Colour the level and status (ANSI). Default: when the stream is a terminal.
   * @example `colors: false`
   */
  colors?: boolean
  /**
   * The clock of the timestamps. Default: the wall clock.
   * @example `now: () => new Date('2026-01-01T00:00:00Z')`
   */
  now?: Clock
}

/**
 * A logger for people at a terminal: one line per entry, `HH:MM:SS.mmm LEVEL message`, a request as
 * `GET /v1/files 200 3.2 ms` followed by its bot and request id, other fields as `key=value`.
 *
 * @example
 * ```ts
 * const logger = createPrettyLogger(process.stdout)
 * logger.log('info', 'request', { method: 'GET', path: '/v1/files', status: 200, ms: 3.2, requestId: 'req_1', botId: 'b' })
 * // 09:15:02.114 INFO  GET /v1/files 200 3.2 ms bot=b req_1
 * ```
 */
export function createPrettyLogger(stream: { write(line: string): unknown; isTTY?: boolean } = process.stdout, options: PrettyLoggerOptions = {}): Logger {
  const c = pc.createColors(options.colors ?? stream.isTTY === true)
  const levelText: Record<LogLevel, string> = {
    debug: c.gray('DEBUG'),
    info: c.green('INFO '),
    warn: c.yellow('WARN '),
    error: c.red('ERROR'),
  }
  const statusText = (status: number): string => (status >= 500 ? c.red(String(status)) : status >= 400 ? c.yellow(String(status)) : String(status))
  // The shared logger body builds the record; this printer only lays it out.
  return createRecordLogger((record) => {
    const { time, level, msg, ...fields } = record
    let body: string
    if (msg === 'request' && typeof fields.method === 'string') {
      const { method, path, status, ms, requestId, botId, ...rest } = fields
      body = `${method} ${String(path)} ${statusText(Number(status))} ${String(ms)} ms${botId ? c.dim(` bot=${String(botId)}`) : ''}${c.dim(` ${String(requestId)}`)}${pairs(rest, c.dim)}`
    } else {
      const { stack, ...rest } = fields
      body = `${msg}${pairs(rest, c.dim)}${typeof stack === 'string' ? `\n${c.dim(stack)}` : ''}`
    }
    stream.write(`${c.dim(time.slice(11, 23))} ${levelText[level]} ${body}\n`)
  }, options.now ?? systemClock)
}

function pairs(fields: Record<string, unknown>, dim: (text: string) => string): string {
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined)
  if (entries.length === 0) return ''
  return ` ${entries.map(([key, value]) => dim(`${key}=${typeof value === 'string' ? (/\s/.test(value) ? JSON.stringify(value) : value) : JSON.stringify(value)}`)).join(' ')}`
}
