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
  /** Likely causes read from the input's shape (a wrapped body, `createdAt`, a v12 event); often empty. */
  readonly hints: readonly string[]

  constructor(issues: readonly ReadableIssue[], lead = 'Invalid event', hints: readonly string[] = []) {
    const message = formatIssues(lead, issues)
    super('InvalidPayload', 'INVALID_EVENT', hints.length > 0 ? `${message}\nLikely cause: ${hints.join('; ')}` : message)
    this.issues = Object.freeze([...issues])
    this.hints = Object.freeze([...hints])
  }

  /** Plain JSON form, handy for logs and HTTP answers. */
  toJSON(): { code: string; message: string; issues: readonly ReadableIssue[]; hints?: readonly string[] } {
    return { code: this.code, message: this.message, issues: this.issues, ...(this.hints.length > 0 ? { hints: this.hints } : {}) }
  }
}
