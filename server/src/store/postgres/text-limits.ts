import postgres from 'postgres'
import { BotshelfError } from 'botshelf/api'

/** SQLSTATE of a text PostgreSQL cannot hold: the NUL character (or bytes invalid in the database's encoding). */
const UNSTORABLE_TEXT = new Set(['22021', '22P05'])

/**
 * Whether any of the values is a string with the NUL character, which PostgreSQL text cannot contain: a lookup
 * by such an id or key can only find nothing.
 *
 * @example
 * ```ts
 * if (hasNul(id)) return undefined
 * ```
 */
export function hasNul(...values: ReadonlyArray<string>): boolean {
  return values.some((value) => value.includes('\u0000'))
}

/**
 * The error a caller gets for a statement PostgreSQL refused because of a text value it cannot store: a
 * `BotshelfError` `INVALID_TEXT` (400 InvalidPayload) instead of an internal error; any other error unchanged.
 *
 * @example
 * ```ts
 * throw explainUnstorableText(error)
 * ```
 */
export function explainUnstorableText(error: unknown): unknown {
  if (!(error instanceof postgres.PostgresError) || !UNSTORABLE_TEXT.has(error.code)) return error
  return new BotshelfError(
    'InvalidPayload',
    'INVALID_TEXT',
    'A text value contains the NUL character (\\u0000) or bytes that are not valid UTF-8, which cannot be stored; remove them',
  )
}
