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

  /** The lead of the message; the text itself is written on first read (see the `message` accessor below). */
  readonly #lead: string

  constructor(issues: readonly ReadableIssue[], lead = 'Invalid event', hints: readonly string[] = []) {
    // No message handed to Error: it would make an own `message` property, and writing the text eagerly cost about
    // as much as finding the issues (a refusal's text is often never read: the caller reads `issues`).
    super('InvalidPayload', 'INVALID_EVENT', undefined as unknown as string)
    this.#lead = lead
    this.issues = Object.freeze([...issues])
    this.hints = Object.freeze([...hints])
  }

  /** The message, written on first read and kept. */
  static {
    Object.defineProperty(this.prototype, 'message', {
      configurable: true,
      get(this: EventValidationError): string {
        const text = formatIssues(this.#lead, this.issues)
        const message = this.hints.length > 0 ? `${text}\nLikely cause: ${this.hints.join('; ')}` : text
        Object.defineProperty(this, 'message', { value: message, writable: true, configurable: true, enumerable: false })
        return message
      },
      set(this: EventValidationError, value: string) {
        Object.defineProperty(this, 'message', { value, writable: true, configurable: true, enumerable: false })
      },
    })
  }

  /** Plain JSON form, handy for logs and HTTP answers. */
  toJSON(): { code: string; message: string; issues: readonly ReadableIssue[]; hints?: readonly string[] } {
    return { code: this.code, message: this.message, issues: this.issues, ...(this.hints.length > 0 ? { hints: this.hints } : {}) }
  }
}
