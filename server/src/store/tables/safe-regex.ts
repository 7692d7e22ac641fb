import { BotshelfError } from 'botshelf/api'
import { createRequire } from 'node:module'
import type { RE2JS } from 're2js'
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

// re2js is one 257 KB module (~0.6 MB of heap once loaded) that only a `$regex` filter or a column `pattern` needs:
// it is required (synchronously, its CommonJS build) by the first compile and kept (decision 1480).
const requireFromHere = createRequire(import.meta.url)
let engine: { RE2JS: typeof RE2JS; flags: Readonly<Record<string, number>> } | undefined

/** The RE2 engine and its flag bits, loaded by the first call and kept for the life of the process. */
function re2(): NonNullable<typeof engine> {
  if (!engine) {
    const loaded = (requireFromHere('re2js') as { RE2JS: typeof RE2JS }).RE2JS
    engine = {
      RE2JS: loaded,
      // RE2 always matches by Unicode code point; `u` changes nothing and is accepted for JavaScript habits.
      flags: { i: loaded.CASE_INSENSITIVE, m: loaded.MULTILINE, s: loaded.DOTALL, u: 0 },
    }
  }
  return engine
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
    const { RE2JS: engineClass, flags: flagBits } = re2()
    let bits = 0
    for (const flag of flags) bits |= flagBits[flag] ?? 0
    const compiled = engineClass.compile(pattern, bits)
    regex = { programSize: compiled.programSize(), test: (value) => compiled.test(value) }
    cache.set(key, regex)
  }
  if (bounded && regex.programSize > regexLimits.programMax) throw new RegexTooComplexError(regex.programSize, false)
  return regex
}
