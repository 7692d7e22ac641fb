import type { ErrorType } from '../api/error-types.js'
import { BotshelfError } from '../errors/index.js'
import { formatIssues, type ReadableIssue } from '../issues/index.js'

/**
 * An error a route answers with: its wire `type` fixes the HTTP status (docs/wire-format.md §3) and is its code.
 * Part of the one hierarchy (`BotshelfError`); the app's error handler turns any of them into the wire body.
 *
 * @example
 * ```ts
 * throw new ServiceError('ResourceNotFound', 'File "report.pdf" not found')
 * ```
 */
export class ServiceError extends BotshelfError {
  override readonly name: string = 'ServiceError'

  constructor(type: ErrorType, message: string, metadata?: Record<string, unknown>) {
    // A route's own refusal: its stable code is its wire type.
    super(type, type, message, metadata)
  }
}

/**
 * An `InvalidPayload` (or other 400-class type) error built from readable issues, so the message names
 * every field, what was expected and what was received. The issues go into `metadata.issues`.
 *
 * @example
 * ```ts
 * throw invalidFromIssues('Invalid request body', toReadableIssues(result.error.issues, body))
 * ```
 */
export function invalidFromIssues(
  lead: string,
  issues: ReadonlyArray<ReadableIssue>,
  type: ErrorType = 'InvalidPayload',
): ServiceError {
  return new ServiceError(type, formatIssues(lead, issues), {
    issues: issues.map(({ path, expected, received, message }) => ({ path, expected, received, message })),
  })
}
