import type { Sqlite } from './open-database.js'
import { compileSafeRegex } from '../tables/safe-regex.js'

/**
 * Name of the SQLite function that runs `$regex`: `botshelf_regexp(pattern, flags, value)` → 0 or 1.
 *
 * @example
 * ```ts
 * `(${column} IS NOT NULL AND ${REGEXP_FUNCTION}(?, ?, ${column}) = 1)`
 * ```
 */
export const REGEXP_FUNCTION = 'botshelf_regexp'

/**
 * Registers the `$regex` function on a connection: the RE2 matcher of `compileSafeRegex`, so matching stays
 * linear in the value (docs/decisions/0409-linear-time-regex.md). Deterministic; a NULL value never matches.
 *
 * @example
 * ```ts
 * registerRegexFunction(db)
 * db.prepare(`SELECT botshelf_regexp('^a', 'i', 'Ada')`).pluck().get() // 1
 * ```
 */
export function registerRegexFunction(db: Sqlite): void {
  db.function(REGEXP_FUNCTION, { deterministic: true, varargs: false }, (pattern: unknown, flags: unknown, value: unknown) => {
    if (typeof value !== 'string') return 0
    return compileSafeRegex(String(pattern), String(flags)).test(value) ? 1 : 0
  })
}
