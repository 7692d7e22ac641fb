import { BotshelfError } from 'botshelf/api'
import { invalidQuery, TablesStoreError } from './errors.js'
import { regexLimits } from './regex-limits.js'
import type { SafeRegex } from './safe-regex.js'

/** Options of a `RegexBudget`. */
export interface RegexBudgetOptions {
  /**
   * Milliseconds the matches may take in all; default `regexLimits.budgetMs` (50).
   *
   * @example
   * ```ts
   * new RegexBudget({ baseMs: 10, refuse: (reason, path) => invalidQuery(`${path}: ${reason}`) })
   * ```
   */
  baseMs?: number
  /**
   * Nanoseconds added to the allowance for each character matched (writes: `regexLimits.writeNsPerChar`);
   * default 0, a fixed allowance.
   *
   * @example
   * ```ts
   * new RegexBudget({ perCharNs: 100, refuse })
   * ```
   */
  perCharNs?: number
  /**
   * Builds the error a refusal throws, from the reason (`a pattern of 752 instructions against a value of 60000
   * characters may take up to 1804 ms, …`) and the path of what was being matched; default a
   * `RegexBudgetExceeded` for the caller to turn into its own answer.
   *
   * @example
   * ```ts
   * new RegexBudget({ refuse: (reason, path) => invalidQuery(`${path}: the $regex filter needs more work than allowed: ${reason}`) })
   * ```
   */
  refuse?: (reason: string, path: string) => Error
  /**
   * The clock, in milliseconds; default `performance.now`.
   *
   * @example
   * ```ts
   * let t = 0; new RegexBudget({ refuse, now: () => t })
   * ```
   */
  now?: () => number
}

/**
 * The refusal of a `RegexBudget` built without `refuse`: `reason` says what the match could have cost against what
 * was left.
 *
 * @example
 * ```ts
 * try { budget.test(regex, value, path) } catch (error) { if (error instanceof RegexBudgetExceeded) problems.push(error.reason) }
 * ```
 */
export class RegexBudgetExceeded extends BotshelfError {
  override readonly name: string = 'RegexBudgetExceeded'

  constructor(
    /** Why the match was refused, in words. */
    readonly reason: string,
    /** What was being matched (`rows.3.code`). */
    readonly path: string,
  ) {
    super('LimitExceeded', 'REGEX_BUDGET_EXCEEDED', `${path}: matching the pattern needs more work than allowed: ${reason}`)
  }
}

const ms = (value: number) => (value >= 10 ? Math.round(value).toString() : value >= 0.1 ? value.toFixed(1) : value.toFixed(3))

/**
 * What a request may spend matching user patterns (docs/decisions/0701-input-bounds.md). RE2 cannot be stopped
 * half-way through a match, so each match is bounded before it runs by its worst case, `programSize × value
 * length / regexLimits.unitsPerMs` milliseconds, against what is left of the allowance; the time it then
 * really takes is counted (up to twice that worst case and a millisecond: a pause of the process is not the
 * pattern's doing). A match
 * that could overrun is refused with the error `refuse` builds, before it runs: the matches of one request take
 * at most the allowance (50 ms by default), whatever the patterns, values and number of rows.
 *
 * @example
 * ```ts
 * const budget = queryRegexBudget()
 * budget.test(compileSafeRegex('^a', 'i'), 'Ada', 'filter.name.$regex') // true
 * budget.test(compileSafeRegex('(.*a){150}', ''), 'ab'.repeat(30_000), 'filter.name.$regex') // throws InvalidQuery
 * ```
 */
export class RegexBudget {
  private spentMs = 0
  private values = 0
  private chars = 0
  private readonly baseMs: number
  private readonly perCharNs: number
  private readonly now: () => number

  constructor(private readonly options: RegexBudgetOptions = {}) {
    this.baseMs = options.baseMs ?? regexLimits.budgetMs
    this.perCharNs = options.perCharNs ?? 0
    this.now = options.now ?? (() => performance.now())
  }

  /**
   * Whether `regex` is found in `value`, if the match fits what is left of the allowance; throws the refusal
   * naming `path` otherwise.
   *
   * @example
   * ```ts
   * if (budget.test(column.pattern, value, `rows.${index}.${column.name}`)) ok()
   * ```
   */
  test(regex: SafeRegex, value: string, path: string): boolean {
    this.chars += value.length
    const allowanceMs = this.baseMs + (this.chars * this.perCharNs) / 1e6
    // One more step than characters: the end of the text, and the call itself for an empty value.
    const worstMs = (regex.programSize * (value.length + 1)) / regexLimits.unitsPerMs
    if (this.spentMs + worstMs > allowanceMs) {
      const reason = this.reason(regex, value, worstMs, allowanceMs)
      throw this.options.refuse ? this.options.refuse(reason, path) : new RegexBudgetExceeded(reason, path)
    }
    const started = this.now()
    try {
      return regex.test(value)
    } finally {
      this.values++
      // Far past its worst case, the time is not the pattern's doing (a pause of the process, a garbage
      // collection): counting it all would refuse cheap queries on a busy machine.
      this.spentMs += Math.min(this.now() - started, 2 * worstMs + 1)
    }
  }

  private reason(regex: SafeRegex, value: string, worstMs: number, allowanceMs: number): string {
    const one = `a pattern of ${regex.programSize} instructions against a value of ${value.length} characters may take up to ${ms(worstMs)} ms`
    if (this.values === 0) return `${one}, and at most ${ms(allowanceMs)} ms are allowed`
    return `${this.values} value${this.values === 1 ? '' : 's'} took ${ms(this.spentMs)} ms so far and the next, ${one}; at most ${ms(allowanceMs)} ms are allowed`
  }
}

/**
 * The budget of one query's `$regex` filters (`findTableRows`, `deleteTableRows`): 50 ms in all, whatever the
 * number of rows scanned; a refusal is 400 `InvalidQuery` ("filter.name.$regex: the $regex filter needs more
 * work than allowed: …").
 *
 * @example
 * ```ts
 * context.withRegexBudget(queryRegexBudget(), () => statement.all(...params))
 * ```
 */
export function queryRegexBudget(): RegexBudget {
  return new RegexBudget({
    refuse: (reason, path) =>
      invalidQuery(`${path}: the $regex filter needs more work than allowed: ${reason}; use a simpler pattern, or narrow the rows with other conditions first`),
  })
}

/**
 * The budget of one write's column `pattern` checks: 50 ms plus 100 ns per character checked, so checking
 * costs at most a small constant per byte written. A refusal is a `RegexBudgetExceeded`, which `validateRows`
 * reports as the problem of that value (400 `InvalidDataFormat` naming the row and column).
 *
 * @example
 * ```ts
 * const validated = validateRows(columns, rows, 'insert', factor, undefined, writeRegexBudget())
 * ```
 */
export function writeRegexBudget(): RegexBudget {
  return new RegexBudget({ perCharNs: regexLimits.writeNsPerChar })
}

/**
 * The budget of checking a table's existing values against a new or changed column `pattern` (`updateTable`):
 * like a write of those values, 50 ms plus 100 ns per character; a refusal is 400 `InvalidJsonSchema` naming
 * the pattern.
 *
 * @example
 * ```ts
 * context.withRegexBudget(schemaRegexBudget(), () => count(sql, pattern, path))
 * ```
 */
export function schemaRegexBudget(): RegexBudget {
  return new RegexBudget({
    perCharNs: regexLimits.writeNsPerChar,
    refuse: (reason, path) =>
      new TablesStoreError(
        'InvalidJsonSchema',
        'INVALID_SCHEMA',
        `${path}: checking the existing values against the pattern needs more work than allowed: ${reason}; use a simpler pattern`,
      ),
  })
}
