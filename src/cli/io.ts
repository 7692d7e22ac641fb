/**
 * Where the CLI writes: standard output for results (tokens, lists), standard error for messages.
 *
 * @example
 * ```ts
 * const io: CliIo = { stdout: process.stdout, stderr: process.stderr }
 * ```
 */
export interface CliIo {
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
}

/**
 * Raised for bad command-line input; the CLI prints the message and exits with code 2.
 *
 * @example
 * ```ts
 * throw new UsageError('--role is required; one of bot, integration, viewer, ...')
 * ```
 */
export class UsageError extends Error {
  override readonly name = 'UsageError'
  readonly code = 'usage'
}
