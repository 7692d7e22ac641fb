import type { Sqlite } from './open-database.js'
import { regexFlags } from '../../api/tables/index.js'
import { invalidQuery } from '../tables/errors.js'
import { compileSafeRegex } from '../tables/safe-regex.js'

/** Name of the SQLite function that runs `$regex`: `botshelf_regexp(pattern, flags, value)` → 0 or 1. */
export const REGEXP_FUNCTION = 'botshelf_regexp'

/** Longest `$regex` pattern accepted. */
const MAX_PATTERN = 512

/**
 * Checks a `$regex` pattern and its `$options` before they reach SQL: RE2 syntax, flags among
 * `i`, `m`, `s`, `u` (decision 0405). Throws `InvalidQuery` naming the path otherwise.
 *
 * @example
 * ```ts
 * checkRegex('^a', 'i', 'filter.name') // ok
 * checkRegex('(', '', 'filter.name') // throws InvalidQuery
 * ```
 */
export function checkRegex(pattern: unknown, options: unknown, path: string): { pattern: string; flags: string } {
  if (typeof pattern !== 'string') throw invalidQuery(`${path}.$regex: expected a string pattern, received ${typeof pattern}`)
  if (pattern.length > MAX_PATTERN) throw invalidQuery(`${path}.$regex: at most ${MAX_PATTERN} characters, received ${pattern.length}`)
  const flags = options === undefined ? '' : options
  if (typeof flags !== 'string') throw invalidQuery(`${path}.$options: expected a string of flags, received ${typeof flags}`)
  for (const flag of flags) {
    if (!(regexFlags as readonly string[]).includes(flag)) {
      throw invalidQuery(`${path}.$options: unsupported regex flag "${flag}"; allowed: ${regexFlags.join(', ')}`)
    }
  }
  if (new Set(flags).size !== flags.length) throw invalidQuery(`${path}.$options: repeated regex flag in "${flags}"`)
  try {
    compileSafeRegex(pattern, flags)
  } catch (error) {
    throw invalidQuery(
      `${path}.$regex: invalid or unsupported regular expression ${JSON.stringify(pattern)} (${(error as Error).message}); patterns use RE2 syntax: no backreferences or lookarounds`,
    )
  }
  return { pattern, flags }
}

/**
 * Registers the `$regex` function on a connection. Deterministic; a NULL value never matches.
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
