import { BotshelfError, type ErrorType } from 'botshelf/api'

/** Why the sandbox itself (not the code it runs) could not answer. Stable: callers and logs match on them. */
export type SandboxErrorCode = 'INVALID_SANDBOX_OPTIONS' | 'SANDBOX_CLOSED' | 'SANDBOX_UNAVAILABLE'

const wireTypes: Record<SandboxErrorCode, ErrorType> = {
  INVALID_SANDBOX_OPTIONS: 'InvalidPayload',
  SANDBOX_CLOSED: 'ResourceGone',
  SANDBOX_UNAVAILABLE: 'Internal',
}

/**
 * A failure of the code sandbox itself: bad options, a run asked after `close()`, or an engine that cannot start.
 * A computation that fails because of its code is not an error: `run` answers `{ ok: false, reason }` for it. A
 * `SandboxError` means "try again later", not "this cell failed".
 *
 * @example
 * ```ts
 * try { await sandbox.run(code, row) }
 * catch (error) { if (error instanceof SandboxError && error.code === 'SANDBOX_CLOSED') requeue() }
 * ```
 */
export class SandboxError extends BotshelfError {
  override readonly name = 'SandboxError'
  declare readonly code: SandboxErrorCode

  constructor(code: SandboxErrorCode, message: string, options?: { cause?: unknown }) {
    super(wireTypes[code], code, message, undefined, options)
  }
}
