import { parseArgs, type ParseArgsConfig } from 'node:util'
import { UsageError } from './io.js'

/** What `parseCommandArgs` returns: parseArgs' values typed by the option table, and the positionals. */
export type ParsedCommand<O extends CommandOptions> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: boolean; strict: true }>
>

/** The option table of a command, as `node:util` parseArgs takes it. */
export type CommandOptions = NonNullable<ParseArgsConfig['options']>

/**
 * `node:util` parseArgs with errors turned into `UsageError`s that say which option was wrong and how to
 * get help.
 *
 * @example
 * ```ts
 * const { values } = parseCommandArgs(['--port', '3000'], { port: { type: 'string' } }, 'serve')
 * ```
 */
export function parseCommandArgs<O extends CommandOptions>(
  args: string[],
  options: O,
  command: string,
  allowPositionals = false,
): ParsedCommand<O> {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true })
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/\. To specify a positional argument.*$/s, '') : String(error)
    throw new UsageError(`${message}\nRun "botshelf ${command} --help" for usage.`)
  }
}

/**
 * Reads a TCP port option: an integer from 0 to 65535.
 *
 * @example
 * ```ts
 * parsePort('3000') // 3000
 * parsePort('http') // throws UsageError: --port must be an integer from 0 to 65535, received "http"
 * ```
 */
export function parsePort(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback
  const port = Number(value)
  if (!/^\d+$/.test(value) || !Number.isInteger(port) || port > 65535) {
    throw new UsageError(`--port must be an integer from 0 to 65535, received ${JSON.stringify(value)}`)
  }
  return port
}
