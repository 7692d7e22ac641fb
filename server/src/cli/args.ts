import { parseArgs, type ParseArgsConfig } from 'node:util'
import { parseRateLimitSpec, RateLimitOptionError, type RateLimitOptions } from '../http/rate-limit/index.js'
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
    return parseArgs({ args: attachDashValues(args, options), options, allowPositionals, strict: true })
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/\. To specify a positional argument.*$/s, '') : String(error)
    throw new UsageError(`${message}\nRun "botshelf ${command} --help" for usage.`)
  }
}

/**
 * Joins a string option to a value that starts with a dash (`--port -1`, `--filter -`) as `--port=-1`: parseArgs
 * would call it ambiguous, although it can only be the option's value. The value is then checked like any other.
 *
 * @example
 * ```ts
 * attachDashValues(['--port', '-1'], { port: { type: 'string' } }) // ['--port=-1']
 * ```
 */
export function attachDashValues(args: readonly string[], options: CommandOptions): string[] {
  const takesValue = new Set<string>()
  for (const [name, option] of Object.entries(options)) {
    if (option.type !== 'string') continue
    takesValue.add(`--${name}`)
    if (option.short) takesValue.add(`-${option.short}`)
  }
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    const next = args[i + 1]
    if (arg === '--') {
      out.push(...args.slice(i))
      break
    }
    if (takesValue.has(arg) && next !== undefined && next.startsWith('-') && (next === '-' || /^-[\d.]/.test(next))) {
      out.push(arg.startsWith('--') ? `${arg}=${next}` : `${arg}${next}`)
      i += 1
    } else {
      out.push(arg)
    }
  }
  return out
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
export function parsePort(value: string | undefined, fallback: number, option = '--port'): number {
  if (value === undefined) return fallback
  const port = Number(value)
  if (!/^\d+$/.test(value) || !Number.isInteger(port) || port > 65535) {
    throw new UsageError(`${option} must be an integer from 0 to 65535, received ${JSON.stringify(value)}`)
  }
  return port
}

/** The longest `--shutdown-grace` accepted, in seconds (one day): beyond that a stop would look like a hang. */
export const MAX_SHUTDOWN_GRACE_SECONDS = 86_400

/**
 * Reads `--shutdown-grace`: a number of seconds from 0 to 86400 (decimals allowed), returned in milliseconds.
 *
 * @example
 * ```ts
 * parseShutdownGrace('30', 10_000) // 30000
 * parseShutdownGrace('0.5', 10_000) // 500
 * parseShutdownGrace('soon', 10_000) // throws UsageError: --shutdown-grace must be a number of seconds from 0 to 86400, received "soon"
 * ```
 */
export function parseShutdownGrace(value: string | undefined, fallbackMs: number): number {
  if (value === undefined) return fallbackMs
  const seconds = Number(value)
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(seconds) || seconds > MAX_SHUTDOWN_GRACE_SECONDS) {
    throw new UsageError(
      `--shutdown-grace must be a number of seconds from 0 to ${MAX_SHUTDOWN_GRACE_SECONDS} (like 10 or 2.5), received ${JSON.stringify(value)}`,
    )
  }
  return Math.round(seconds * 1000)
}

/**
 * Reads `--rate-limit`: `off`, or comma-separated settings (`100/s`, `burst=500`, `token=off`, `ip=200/s`,
 * `ip=off`, `ip-burst=1000`); `undefined` when the flag is absent (the defaults apply). A spec that cannot be
 * read is a `UsageError` (exit 2) naming the faulty setting.
 *
 * @example
 * ```ts
 * parseRateLimit('50/s,burst=200') // { token: { perSecond: 50, burst: 200 } }
 * parseRateLimit('off') // false
 * parseRateLimit('lots') // throws UsageError: --rate-limit: "lots" is not a setting; expected ...
 * ```
 */
export function parseRateLimit(value: string | undefined): RateLimitOptions | false | undefined {
  if (value === undefined) return undefined
  try {
    return parseRateLimitSpec(value)
  } catch (error) {
    if (!(error instanceof RateLimitOptionError)) throw error
    throw new UsageError(`--rate-limit: ${error.message} (received ${JSON.stringify(value)})\nRun "botshelf serve --help" for usage.`)
  }
}
