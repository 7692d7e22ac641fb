import { toReadableIssues } from '../issues/index.js'
import { EventSchema, type BotEvent } from './event-schema.js'
import { EventValidationError } from './event-validation-error.js'
import { readValidEvent } from './valid-event-fast-path.js'
import { refusalHints } from './refusal-hints.js'
import { readRefusalIssues } from './refusal-fast-path.js'

/** Result of `safeParseEvent`. */
export type SafeParseEventResult =
  | { success: true; event: BotEvent; error?: undefined }
  | { success: false; error: EventValidationError; event?: undefined }

/**
 * Validates an event and returns it typed, with `createdOn` as a `Date`. Extra top-level properties are kept.
 * Throws `EventValidationError` listing every issue.
 *
 * @example
 * ```ts
 * const event = parseEvent(JSON.parse(body))
 * event.createdOn.getFullYear()
 * ```
 */
export function parseEvent(input: unknown): BotEvent {
  const result = safeParseEvent(input)
  if (!result.success) {
    // safeParseEvent builds its error without a stack (see there); a thrown one gets the caller's.
    Error.captureStackTrace?.(result.error, parseEvent)
    throw result.error
  }
  return result.event
}

/**
 * Like `parseEvent`, without throwing.
 *
 * @example
 * ```ts
 * const result = safeParseEvent(input)
 * if (!result.success) console.error(result.error.message)
 * else handle(result.event)
 * ```
 */
export function safeParseEvent(input: unknown): SafeParseEventResult {
  // The common valid event is checked directly; everything else (and every issue) comes from the schema.
  const fast = readValidEvent(input)
  if (fast) return { success: true, event: fast as BotEvent }
  // A refusal is an answer, not a fault: the errors zod and this function build carry no stack trace, whose capture
  // cost more than checking the event (a refused event then cost 12-20x ajv's "all errors").
  const stackTraceLimit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    const refused = readRefusalIssues(input)
    if (refused) return { success: false, error: new EventValidationError(toReadableIssues(refused, input), undefined, refusalHints(input)) }
    const result = EventSchema.safeParse(input)
    if (result.success) return { success: true, event: result.data as BotEvent }
    return { success: false, error: new EventValidationError(toReadableIssues(result.error.issues, input), undefined, refusalHints(input)) }
  } finally {
    Error.stackTraceLimit = stackTraceLimit
  }
}
