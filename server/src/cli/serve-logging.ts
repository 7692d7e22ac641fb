import { createJsonLogger, type Logger } from '../http/logger.js'
import { logThresholds, parseLogThreshold, withLogThreshold, type LogThreshold } from '../http/log-level.js'
import { createPrettyLogger } from '../http/pretty-logger.js'
import { envOf, UsageError, type CliIo } from './io.js'

/** How `botshelf serve` writes its log: JSON lines for log tools, or pretty lines for people. */
export type LogFormat = 'json' | 'pretty'

/**
 * The request log of `botshelf serve`: its threshold from `--log-level`, else `BOTSHELF_LOG_LEVEL`, else `info`;
 * its format from `--log-format`, else `BOTSHELF_LOG_FORMAT`, else pretty when standard output is a terminal and
 * JSON lines otherwise. A value it cannot read is a `UsageError` naming the option or variable.
 *
 * @example
 * ```ts
 * const logger = serveLogger({ 'log-level': 'warn', 'log-format': 'json' }, io)
 * ```
 */
export function serveLogger(values: { 'log-level'?: string; 'log-format'?: string }, io: CliIo): { logger: Logger; level: LogThreshold; format: LogFormat } {
  const env = envOf(io)
  const level = readLevel(values['log-level'], '--log-level') ?? readLevel(env.BOTSHELF_LOG_LEVEL, 'BOTSHELF_LOG_LEVEL') ?? 'info'
  const format = readFormat(values['log-format'], '--log-format') ?? readFormat(env.BOTSHELF_LOG_FORMAT, 'BOTSHELF_LOG_FORMAT') ?? (io.stdout.isTTY === true ? 'pretty' : 'json')
  const base = format === 'pretty' ? createPrettyLogger(io.stdout, { colors: io.stdout.isTTY === true && env.NO_COLOR === undefined }) : createJsonLogger({ write: (line) => io.stdout.write(`${line}\n`), level: 'debug' })
  return { logger: withLogThreshold(base, level), level, format }
}

function readLevel(value: string | undefined, name: string): LogThreshold | undefined {
  if (value === undefined || value === '') return undefined
  const level = parseLogThreshold(value)
  if (!level) throw new UsageError(`${name} must be one of ${logThresholds.join(', ')}, received ${JSON.stringify(value)}`)
  return level
}

function readFormat(value: string | undefined, name: string): LogFormat | undefined {
  if (value === undefined || value === '') return undefined
  if (value !== 'json' && value !== 'pretty') throw new UsageError(`${name} must be pretty or json, received ${JSON.stringify(value)}`)
  return value
}
