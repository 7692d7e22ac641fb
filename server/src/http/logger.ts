// The logger is the light package's (one interface, one JSON logger); the service's modules import it from here.
// A `createApp({ logger })` may be any `LoggerLike`, such as `{ log(level, msg, fields) }`; `toLogger` completes it.
export { createJsonLogger, silentLogger, toLogger, type Logger, type LoggerLike, type LogLevel } from 'botshelf/api'

/**
 * Where the service writes its JSON lines by default: standard output, one line each.
 *
 * @example
 * ```ts
 * createJsonLogger({ write: writeToStdout })
 * ```
 */
export function writeToStdout(line: string): void {
  process.stdout.write(`${line}\n`)
}
