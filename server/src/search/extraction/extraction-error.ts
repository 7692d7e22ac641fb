import type { ErrorType } from 'botshelf/api'
import { BotshelfError } from 'botshelf/api'

/** Why a document could not be turned into passages. Stable: jobs, logs and tests match on them. */
export type ExtractionErrorCode =
  | 'UNSUPPORTED_FORMAT'
  | 'CORRUPT_DOCUMENT'
  | 'EMPTY_DOCUMENT'
  | 'NO_TEXT'
  | 'TOO_LARGE'
  | 'TOO_MANY_PAGES'
  | 'TOO_DEEP'
  | 'TIME_LIMIT'
  | 'MEMORY_LIMIT'
  | 'WORKER_FAILED'
  | 'ABORTED'
  | 'INVALID_OPTIONS'

const wireTypes: Record<ExtractionErrorCode, ErrorType> = {
  UNSUPPORTED_FORMAT: 'UnsupportedMediaType',
  CORRUPT_DOCUMENT: 'InvalidDataFormat',
  EMPTY_DOCUMENT: 'InvalidDataFormat',
  NO_TEXT: 'InvalidDataFormat',
  TOO_LARGE: 'LimitExceeded',
  TOO_MANY_PAGES: 'LimitExceeded',
  TOO_DEEP: 'LimitExceeded',
  TIME_LIMIT: 'OperationTimeout',
  MEMORY_LIMIT: 'LimitExceeded',
  WORKER_FAILED: 'Internal',
  ABORTED: 'OperationTimeout',
  INVALID_OPTIONS: 'InvalidPayload',
}

const codes = new Set<string>(Object.keys(wireTypes))

/**
 * A document that could not be turned into passages. `message` is a human reason, fit for a file's
 * `failedStatusReason` (it names the document's key and what was wrong); `code` is stable.
 *
 * @example
 * ```ts
 * try { await extractPassages({ content, contentType: 'application/pdf', key: 'a.pdf' }) }
 * catch (error) { if (error instanceof ExtractionError && error.code === 'TOO_MANY_PAGES') console.log(error.message) }
 * ```
 */
export class ExtractionError extends BotshelfError {
  override readonly name = 'ExtractionError'
  declare readonly code: ExtractionErrorCode

  constructor(code: ExtractionErrorCode, message: string, metadata?: Record<string, unknown>) {
    super(wireTypes[code], code, message, metadata)
  }

  /**
   * Whether `code` is one of the stable codes (used when an error crosses the worker boundary as plain data).
   *
   * @example
   * ```ts
   * ExtractionError.isCode('TIME_LIMIT') // true
   * ```
   */
  static isCode(code: unknown): code is ExtractionErrorCode {
    return typeof code === 'string' && codes.has(code)
  }
}
