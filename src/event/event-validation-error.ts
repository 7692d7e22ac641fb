import { BotshelfError } from '../errors/index.js'
import { formatIssues, type ReadableIssue } from '../issues/index.js'

/**
 * Thrown by `parseEvent` (and reported by `safeParseEvent`) when an event does not match the schema.
 * `code` is always `INVALID_EVENT`; `issues` lists every problem with its path, what was expected and what was
 * received; `message` reads well as is.
 *
 * @example
 * ```ts
 * try { parseEvent(input) } catch (error) {
 *   if (error instanceof EventValidationError) console.log(error.issues.map((i) => i.path))
 * }
 * ```
 */
export class EventValidationError extends BotshelfError {
  /** Stable error code. */
  declare readonly code: 'INVALID_EVENT'
  override readonly name = 'EventValidationError'
  /** Every problem found, in schema order. */
  readonly issues: readonly ReadableIssue[]

  constructor(issues: readonly ReadableIssue[], lead = 'Invalid event') {
    super('InvalidPayload', 'INVALID_EVENT', formatIssues(lead, issues))
    this.issues = Object.freeze([...issues])
  }

  /** Plain JSON form, handy for logs and HTTP answers. */
  toJSON(): { code: string; message: string; issues: readonly ReadableIssue[] } {
    return { code: this.code, message: this.message, issues: this.issues }
  }
}
