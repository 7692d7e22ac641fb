import { BotshelfError } from 'botshelf/api'

/**
 * Raised for bad admin input (unknown bot, bad role, ...), with a stable `code`; the CLI prints its message.
 * Part of the one hierarchy (`BotshelfError`).
 *
 * @example
 * ```ts
 * try { store.revokeToken('tok_x') } catch (e) { if (e instanceof AuthStoreError && e.code === 'unknown_token') ... }
 * ```
 */
export class AuthStoreError extends BotshelfError {
  override readonly name: string = 'AuthStoreError'
  declare readonly code: AuthErrorCode
  constructor(code: AuthErrorCode, message: string) {
    super(code === 'unknown_bot' || code === 'unknown_token' ? 'ResourceNotFound' : 'InvalidPayload', code, message)
  }
}

/** Stable codes of auth errors. */
export type AuthErrorCode = 'unknown_bot' | 'unknown_token' | 'invalid_role' | 'invalid_integration' | 'invalid_scope'
