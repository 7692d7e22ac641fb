import { createRecordLogger, type Logger, type LogRecord } from '../logging/index.js'
import type { Clock } from '../clock/index.js'

/** A logger that keeps its lines in memory, for tests. */
export interface MemoryLogger extends Logger {
  /** Every line logged through this logger or its children, oldest first. */
  readonly records: LogRecord[]
  /** Forgets the lines logged so far. */
  clear(): void
}

/**
 * A logger that records every line (with bindings) in `records` instead of writing it. Pass it to
 * `createRuntime({ logger })` and assert on what hooks logged.
 *
 * @example
 * ```ts
 * const logger = createMemoryLogger()
 * const runtime = createRuntime({ hooks, logger })
 * await runtime.dispatch(fakeTextEvent('hi'))
 * expect(logger.records.map((r) => r.msg)).toContain('tagged')
 * ```
 */
export function createMemoryLogger(
  options: {
    /** Clock of the records' `time`; default the real clock: `now: () => FAKE_EVENT_TIME`. */
    now?: Clock
  } = {},
): MemoryLogger {
  const records: LogRecord[] = []
  const logger = createRecordLogger((record) => records.push(record), options.now)
  return Object.assign(logger, { records, clear: () => void records.splice(0, records.length) })
}
