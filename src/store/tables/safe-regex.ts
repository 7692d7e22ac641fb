import { RE2JS } from 're2js'

/**
 * A compiled pattern that answers "is it found in this string?". Patterns come from API callers (`$regex`,
 * a column's `pattern`), so they run on RE2 (re2js): matching is linear in the input, and no pattern can stall
 * the server with catastrophic backtracking (docs/decisions/0409-linear-time-regex.md). RE2 refuses
 * backreferences and lookarounds at compile time.
 */
export interface SafeRegex {
  test(value: string): boolean
}

const cache = new Map<string, SafeRegex>()
const CACHE_SIZE = 500

const RE2_FLAGS: Readonly<Record<string, number>> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  // RE2 always matches by Unicode code point; `u` changes nothing and is accepted for JavaScript habits.
  u: 0,
}

/**
 * Compiles (and caches) a pattern with flags among `i`, `m`, `s`, `u`. Throws the RE2 syntax error for an
 * invalid or unsupported pattern.
 *
 * @example
 * ```ts
 * compileSafeRegex('^ada', 'i').test('Ada Lovelace') // true
 * compileSafeRegex('(a)\\1', '') // throws: backreferences are not supported
 * ```
 */
export function compileSafeRegex(pattern: string, flags: string): SafeRegex {
  const key = `${flags}/${pattern}`
  let regex = cache.get(key)
  if (!regex) {
    let bits = 0
    for (const flag of flags) bits |= RE2_FLAGS[flag] ?? 0
    const compiled = RE2JS.compile(pattern, bits)
    regex = { test: (value) => compiled.matcher(value).find() }
    if (cache.size > CACHE_SIZE) cache.clear()
    cache.set(key, regex)
  }
  return regex
}
