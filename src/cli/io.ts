/** Where the CLI writes: standard output for results (tokens, lists), standard error for messages. */
export interface CliIo {
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
}

/** Raised for bad command-line input; the CLI prints the message and exits with code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
  readonly code = 'usage'
}
