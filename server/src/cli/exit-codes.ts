/**
 * The exit codes of every `botshelf` command (docs/cli.md, decisions 0206 and 1001). Scripts may rely on them.
 *
 * @example
 * ```ts
 * if (code === exitCodes.connection) console.error('check --url and --token')
 * ```
 */
export const exitCodes = {
  /** Done. */
  ok: 0,
  /** The operation failed: the service refused it (not found, invalid, conflict) or something broke. */
  failure: 1,
  /** Bad command-line input: the message names the option and points to `--help`. */
  usage: 2,
  /** The service could not be reached, or refused the credentials (401, 403). */
  connection: 3,
  /** Interrupted by Ctrl-C (SIGINT): work in flight was abandoned, nothing half-done was left. */
  interrupted: 130,
} as const

/** One of the exit codes. */
export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes]
