import { BotshelfError } from 'botshelf/api'
/**
 * Where the CLI writes: standard output for results (tokens, lists), standard error for messages and progress.
 * `isTTY` says whether a stream is a terminal (progress bars, colours, tables are chosen from it); `env` is the
 * environment the CLI reads its settings from (default `process.env`).
 *
 * @example
 * ```ts
 * const io: CliIo = { stdout: process.stdout, stderr: process.stderr }
 * ```
 */
export interface CliIo {
  stdout: CliStream
  stderr: CliStream
  /** The environment (`BP_*`, `BOTSHELF_*`, `NO_COLOR`); default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>
  /** Standard input, for `tables insert -`; default `process.stdin`. */
  stdin?: AsyncIterable<Uint8Array | string>
}

/**
 * A stream the CLI writes to: anything with `write`; a terminal also has `isTTY` (and, as Node's tty streams
 * do, `columns`, `cursorTo`, `clearLine`, which progress bars use).
 *
 * @example
 * ```ts
 * const captured: CliStream = { write: (text) => chunks.push(text) }
 * ```
 */
export interface CliStream {
  write(text: string): unknown
  isTTY?: boolean
}

/**
 * The environment of a CLI run: `io.env`, or the process's.
 *
 * @example
 * ```ts
 * envOf(io).BP_TOKEN
 * ```
 */
export function envOf(io: CliIo): Readonly<Record<string, string | undefined>> {
  return io.env ?? process.env
}

/**
 * Raised for bad command-line input; the CLI prints the message and exits with code 2.
 *
 * @example
 * ```ts
 * throw new UsageError('--role is required; one of bot, integration, viewer, ...')
 * ```
 */
export class UsageError extends BotshelfError {
  override readonly name: string = 'UsageError'
  declare readonly code: 'USAGE'
  constructor(message: string) {
    super('InvalidPayload', 'USAGE', message)
  }
}

/**
 * A data file a command reads (a CSV or JSON import) that does not fit: malformed, or a value of the wrong type.
 * Not a bad command line, so its exit code is 1 (failure), not 2; the message names the file and the row.
 *
 * @example
 * ```ts
 * throw new DataFileError('people.csv: row 300 (line 301), column "age": expected a number, received "forty"')
 * ```
 */
export class DataFileError extends BotshelfError {
  override readonly name: string = 'DataFileError'
  declare readonly code: 'DATA_FILE_INVALID'
  constructor(message: string) {
    super('InvalidPayload', 'DATA_FILE_INVALID', message)
  }
}
