import { BotshelfError } from 'botshelf/api'

/**
 * Raised for bad admin input (unknown bot, bad role, ...), with a stable `code`; the CLI prints its message.
 * Part of the one hierarchy (`BotshelfError`).
 *
 * @example
 * ```ts
 * try { store.revokeToken('tok_x') } catch (e) { if (e instanceof AuthStoreError && e.code === 'UNKNOWN_TOKEN') ... }
 * ```
 */
export class AuthStoreError extends BotshelfError {
  override readonly name: string = 'AuthStoreError'
  declare readonly code: AuthErrorCode
  constructor(code: AuthErrorCode, message: string) {
    super(code === 'UNKNOWN_BOT' || code === 'UNKNOWN_TOKEN' ? 'ResourceNotFound' : 'InvalidPayload', code, message)
  }
}

/** Stable codes of auth errors. */
export type AuthErrorCode = 'UNKNOWN_BOT' | 'UNKNOWN_TOKEN' | 'INVALID_ROLE' | 'INVALID_INTEGRATION' | 'INVALID_SCOPE'
