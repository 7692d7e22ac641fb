import { BotshelfError } from 'botshelf/api'
import { RE2JS } from 're2js'
import { regexLimits } from './regex-limits.js'
import { estimateRegexSize } from './regex-size.js'
import { BoundedMap } from 'botshelf/api'

/**
 * A compiled pattern that answers "is it found in this string?". Patterns come from API callers (`$regex`,
 * a column's `pattern`), so they run on RE2 (re2js): matching is linear in the input, and no pattern can stall
 * the server with catastrophic backtracking (docs/decisions/0409-linear-time-regex.md). RE2 refuses
 * backreferences and lookarounds at compile time. `programSize` is the factor of that linear time: matching a
 * value may take up to `programSize × value.length / regexLimits.unitsPerMs` milliseconds, which `RegexBudget`
 * checks before each match (docs/decisions/0701-input-bounds.md).
 */
export interface SafeRegex {
  /** Instructions of the compiled program (at most `regexLimits.programMax`). */
  readonly programSize: number
  test(value: string): boolean
}

/**
 * A pattern RE2 could run but that is too large to: its estimated or compiled size passes
 * `regexLimits.estimateMax` or `regexLimits.programMax`. The message says which and how large.
 *
 * @example
 * ```ts
 * try { compileSafeRegex('(.*a){1000}', '') } catch (error) { if (error instanceof RegexTooComplexError) console.log(error.size) }
 * ```
 */
export class RegexTooComplexError extends BotshelfError {
  override readonly name: string = 'RegexTooComplexError'

  constructor(
    /** The compiled size, or the estimate when the pattern was refused before compiling. */
    readonly size: number,
    /** Whether `size` is an estimate (the pattern was not compiled). */
    readonly estimated: boolean,
  ) {
    super(
      'InvalidPayload',
      'REGEX_TOO_COMPLEX',
      estimated
        ? `it would compile to about ${size} instructions, at most ${regexLimits.programMax} are allowed; lower repetition counts such as {1000}`
        : `it compiles to ${size} instructions, at most ${regexLimits.programMax} are allowed; lower repetition counts such as {1000}`,
    )
  }
}

/** Options of `compileSafeRegex`. */
export interface CompileRegexOptions {
  /**
   * Whether to refuse a pattern past `regexLimits.estimateMax` / `programMax` (default true). Patterns already
   * accepted (a column pattern in the catalog, possibly from before the limits; a `$regex` checked when its
   * filter was read) are compiled unbounded where they run: their matches are bounded by a `RegexBudget`.
   *
   * @example
   * ```ts
   * compileSafeRegex(column.pattern, 'u', { bounded: false })
   * ```
   */
  bounded?: boolean
}

const cache = new BoundedMap<string, SafeRegex>(500, 'clear')

const RE2_FLAGS: Readonly<Record<string, number>> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  // RE2 always matches by Unicode code point; `u` changes nothing and is accepted for JavaScript habits.
  u: 0,
}

/**
 * Compiles (and caches) a pattern with flags among `i`, `m`, `s`, `u`. Throws the RE2 syntax error for an
 * invalid or unsupported pattern and, unless `bounded: false`, `RegexTooComplexError` for one estimated past
 * `regexLimits.estimateMax` instructions before compiling (so it is never compiled) or compiled past
 * `regexLimits.programMax`. Matching uses RE2's DFA when it can (`RE2JS.test`), the NFA otherwise.
 *
 * @example
 * ```ts
 * compileSafeRegex('^ada', 'i').test('Ada Lovelace') // true
 * compileSafeRegex('(a)\\1', '') // throws: backreferences are not supported
 * compileSafeRegex('(.*a){1000}', '') // throws RegexTooComplexError: it compiles to 5002 instructions
 * ```
 */
export function compileSafeRegex(pattern: string, flags: string, options: CompileRegexOptions = {}): SafeRegex {
  const bounded = options.bounded ?? true
  const key = `${flags}/${pattern}`
  let regex = cache.get(key)
  if (!regex) {
    if (bounded) {
      const estimate = estimateRegexSize(pattern)
      if (estimate > regexLimits.estimateMax) throw new RegexTooComplexError(estimate, true)
    }
    let bits = 0
    for (const flag of flags) bits |= RE2_FLAGS[flag] ?? 0
    const compiled = RE2JS.compile(pattern, bits)
    regex = { programSize: compiled.programSize(), test: (value) => compiled.test(value) }
    cache.set(key, regex)
  }
  if (bounded && regex.programSize > regexLimits.programMax) throw new RegexTooComplexError(regex.programSize, false)
  return regex
}
