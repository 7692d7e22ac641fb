/**
 * Bounds on user regular expressions (`$regex` filters and column `pattern`s; docs/decisions/0409-linear-time-regex.md
 * and 0701-input-bounds.md). RE2 matches in time linear in the value, but the factor is the size of the compiled
 * program: these bounds keep both factors, and their product, small enough that one request holds the event loop
 * for tens of milliseconds at most.
 *
 * @example
 * ```ts
 * if (regex.programSize > regexLimits.programMax) throw new Error('too complex')
 * ```
 */
export const regexLimits = {
  /** Longest pattern, in characters. */
  patternMaxLength: 512,
  /**
   * Most instructions of compiled programs: of one pattern, of all the `$regex` patterns of one filter together,
   * and of all the column patterns of one table together. Everyday patterns take 5 to 50; repetition counts
   * multiply what they repeat (`(.*a){1000}` takes 5002).
   */
  programMax: 1000,
  /**
   * Most instructions a pattern may be estimated at from its text before it is compiled (`estimateRegexSize`), so
   * that a pattern whose compilation alone would take long (70 000 instructions take about 100 ms) is refused
   * without compiling it. Looser than `programMax`: the estimate counts an alternation of single characters
   * (`(a|b|c)`) as written, where RE2 compiles one class.
   */
  estimateMax: 5000,
  /**
   * What matching may cost at worst, in instructions × characters per millisecond: the rate of RE2's slowest
   * paths in re2js (a DFA that builds states for nothing and gives up, then the NFA), measured on adversarial
   * patterns and inputs (`(?i)a[ab]{100}c` on random a/b text: up to 110 ns per instruction and character).
   * Used to bound one match before it runs: `programSize × (value length + 1) / unitsPerMs` milliseconds, so
   * one match fits a 50 ms budget up to 400 000 instruction-characters (a 7-instruction pattern such as `error`
   * reaches values of 57 000 characters, a 100-instruction one 4 000).
   */
  unitsPerMs: 8_000,
  /** Milliseconds one query may spend matching `$regex` filters, and any request matching patterns at least. */
  budgetMs: 50,
  /**
   * Extra nanoseconds per character checked that a write may spend on column patterns, on top of `budgetMs`:
   * checking is then bounded by the size of the data written (about three times the cost of an ordinary pattern
   * scanning every character), however many rows a request writes.
   */
  writeNsPerChar: 100,
} as const
