import { errorTypes, type ErrorType } from '../api/error-types.js'
import { formatIssues, type ReadableIssue } from '../issues/index.js'

/**
 * An error the service answers with: its wire `type` fixes the HTTP status (wire reference §10).
 * Thrown anywhere in the server or the store; the app's error handler turns it into the wire body.
 *
 * @example
 * ```ts
 * throw new ServiceError('ResourceNotFound', 'File "report.pdf" not found')
 * ```
 */
export class ServiceError extends Error {
  override readonly name = 'ServiceError'
  /** HTTP status, equal to the wire `code`. */
  readonly status: number

  constructor(
    readonly type: ErrorType,
    message: string,
    readonly metadata?: Record<string, unknown>,
  ) {
    super(message)
    this.status = errorTypes[type].code
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
