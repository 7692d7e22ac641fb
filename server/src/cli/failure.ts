import { BotshelfError } from 'botshelf/api'
import { AbortError, ApiError, NetworkError, TimeoutError } from 'botshelf/client'
import { exitCodes, type ExitCode } from './exit-codes.js'
import { UsageError } from './io.js'

/**
 * Ctrl-C during a data command: the work in flight is abandoned (uploads are never left visible half-written;
 * downloads go to a temporary file that is removed) and the command exits 130.
 *
 * @example
 * ```ts
 * controller.abort(new InterruptedError())
 * ```
 */
export class InterruptedError extends BotshelfError {
  override readonly name: string = 'InterruptedError'
  constructor(message = 'interrupted') {
    // Botpress has no type for "stopped by the user"; this one is never sent, the CLI exits 130.
    super('Unknown', 'INTERRUPTED', message)
  }
}

/**
 * Turns what a command threw into its exit code and the one line printed on standard error (after
 * `botshelf: `): bad input 2, interrupted 130, unreachable service or refused credentials 3, anything else 1.
 * Known system errors get a sentence naming the option to change instead of a raw `getaddrinfo` message.
 *
 * @example
 * ```ts
 * const { code, message } = describeFailure(error)
 * io.stderr.write(`botshelf: ${message}\n`)
 * ```
 */
export function describeFailure(error: unknown): { code: ExitCode; message: string } {
  if (error instanceof UsageError) return { code: exitCodes.usage, message: error.message }
  if (error instanceof InterruptedError || (error instanceof AbortError && error.cause instanceof InterruptedError)) {
    return { code: exitCodes.interrupted, message: error instanceof InterruptedError ? error.message : 'interrupted' }
  }
  if (error instanceof AbortError) return { code: exitCodes.interrupted, message: 'interrupted' }
  if (error instanceof ApiError) {
    const code = error.code === 401 || error.code === 403 ? exitCodes.connection : exitCodes.failure
    const hint = error.code === 401 ? ' (check --token, BP_TOKEN or your "botshelf login" profile)' : error.code === 403 ? ' (this token may not do that for this bot)' : ''
    return { code, message: `${error.type}: ${error.message}${hint}` }
  }
  if (error instanceof NetworkError || error instanceof TimeoutError) {
    return { code: exitCodes.connection, message: `cannot reach the service: ${error.message} (check --url or BP_API_URL, and that the server runs)` }
  }
  const err = error as NodeJS.ErrnoException & { hostname?: string; port?: number; address?: string }
  switch (err?.code) {
    case 'EADDRINUSE':
      return { code: exitCodes.failure, message: `the port is already in use (${err.message}); pick another with --port` }
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return { code: exitCodes.failure, message: `--host ${JSON.stringify(err.hostname ?? '')} is not an address or a known host name; use an IP address of this machine like 127.0.0.1 or 0.0.0.0` }
    case 'EADDRNOTAVAIL':
      return { code: exitCodes.failure, message: `--host ${JSON.stringify(err.address ?? '')} is not an address of this machine; use 127.0.0.1, 0.0.0.0 or one of its interfaces` }
    case 'EACCES':
      if (err.syscall === 'listen') return { code: exitCodes.failure, message: `not allowed to listen there (${err.message}); ports below 1024 need privileges: pick another with --port` }
      break
    default:
      break
  }
  return { code: exitCodes.failure, message: err instanceof Error ? err.message : String(err) }
}
