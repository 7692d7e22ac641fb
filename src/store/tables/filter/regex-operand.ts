import { regexFlags } from '../../../api/tables/index.js'
import { invalidQuery } from '../errors.js'
import { compileSafeRegex } from '../safe-regex.js'

/** Longest `$regex` pattern accepted. */
const MAX_PATTERN = 512

/**
 * Checks a `$regex` pattern and its `$options`: a string of at most 512 characters in RE2 syntax, flags among
 * `i`, `m`, `s`, `u`, each once (docs/decisions/0405-filter-semantics.md, 0409-linear-time-regex.md). `path` is
 * the condition's path. Throws `InvalidQuery` naming `<path>.$regex` or `<path>.$options` otherwise.
 *
 * @example
 * ```ts
 * checkRegex('^a', 'i', 'filter.name') // { pattern: '^a', flags: 'i' }
 * checkRegex('(', undefined, 'filter.name') // throws InvalidQuery
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
