import type { ErrorType } from 'botshelf/api'
import { BotshelfError } from 'botshelf/api'
import { formatIssues, type ReadableIssue } from 'botshelf/api'

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
  // A body with 20,000 bad values must not get a 4 MB answer: the first issues say what is wrong, the count says how much.
  const listed = issues.slice(0, MAX_LISTED_ISSUES).map((issue) => ({ ...issue, message: clip(issue.message) }))
  const rest = issues.length - listed.length
  const message = formatIssues(lead, listed) + (rest > 0 ? `\n  - … and ${rest} more ${rest === 1 ? 'issue' : 'issues'}` : '')
  return new ServiceError(type, message, {
    issues: listed.map(({ path, expected, received, message: text }) => ({ path, expected, received: clip(received), message: text })),
    ...(rest > 0 ? { issueCount: issues.length } : {}),
  })
}

/** How many issues an error lists at most; `metadata.issueCount` gives the total when there are more. */
export const MAX_LISTED_ISSUES = 20

/** Longest issue message or received value an error repeats, in characters. */
const MAX_ISSUE_TEXT = 300

function clip(text: string): string {
  return text.length <= MAX_ISSUE_TEXT ? text : `${text.slice(0, MAX_ISSUE_TEXT)}… (${text.length} characters)`
}
