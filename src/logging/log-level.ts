/** Severity of a log line, least severe first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

/** The lowest severity a logger lets through, or `silent` for none. */
export type LogThreshold = LogLevel | 'silent'

/** Every threshold `--log-level` and `BOTSHELF_LOG_LEVEL` accept, least severe first. */
export const logThresholds: readonly LogThreshold[] = ['debug', 'info', 'warn', 'error', 'silent']

const rank: Readonly<Record<LogThreshold, number>> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 }

/**
 * Whether a line of `level` passes `threshold`.
 *
 * @example
 * ```ts
 * passesThreshold('info', 'warn') // false
 * passesThreshold('error', 'warn') // true
 * ```
 */
export function passesThreshold(level: LogLevel, threshold: LogThreshold): boolean {
  return rank[level] >= rank[threshold]
}

/**
 * Reads a log threshold (`debug`, `info`, `warn`, `error`, `silent`, any case); `undefined` when it is none of them.
 *
 * @example
 * ```ts
 * parseLogThreshold('WARN') // 'warn'
 * parseLogThreshold('loud') // undefined
 * ```
 */
export function parseLogThreshold(value: string): LogThreshold | undefined {
  const lower = value.trim().toLowerCase()
  return (logThresholds as readonly string[]).includes(lower) ? (lower as LogThreshold) : undefined
}
