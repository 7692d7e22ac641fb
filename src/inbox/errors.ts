import type { ErrorType } from '../api/error-types.js'
import { BotshelfError } from '../errors/index.js'

/** Codes of `InboxError`. */
export type InboxErrorCode = 'INBOX_ENTRY_NOT_FOUND' | 'INBOX_ENTRY_TOO_LARGE' | 'INBOX_WRITE_FAILED' | 'INVALID_INBOX_OPTIONS'

const typeOfCode: Record<InboxErrorCode, ErrorType> = {
  INBOX_ENTRY_NOT_FOUND: 'ResourceNotFound',
  INBOX_ENTRY_TOO_LARGE: 'LimitExceeded',
  INBOX_WRITE_FAILED: 'Internal',
  INVALID_INBOX_OPTIONS: 'InvalidPayload',
}

/**
 * An inbox could not do what was asked: an unknown entry, an event larger than a row of the inbox table holds, a
 * write the storage refused, or bad options. `code` is stable.
 *
 * @example
 * ```ts
 * try { await worker.replay('msg_1') } catch (error) {
 *   if (error instanceof InboxError && error.code === 'INBOX_ENTRY_NOT_FOUND') console.log('no such dead letter')
 * }
 * ```
 */
export class InboxError extends BotshelfError {
  override readonly name = 'InboxError'
  declare readonly code: InboxErrorCode
  constructor(
    code: InboxErrorCode,
    message: string,
    options?: {
      /** What caused it (kept as the standard `error.cause`): `{ cause: storageError }`. */
      cause?: unknown
    },
  ) {
    super(typeOfCode[code], code, message, undefined, options)
  }
}
