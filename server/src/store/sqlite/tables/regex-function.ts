import type { Sqlite } from '../connect.js'
import { queryRegexBudget, type RegexBudget } from '../../tables/regex-budget.js'
import { compileSafeRegex } from '../../tables/safe-regex.js'

/**
 * Name of the SQLite function that runs `$regex` and column patterns: `botshelf_regexp(pattern, flags, path,
 * value)` → 0 or 1, `path` naming the pattern in errors (`filter.name.$regex`).
 *
 * @example
 * ```ts
 * `(${column} IS NOT NULL AND ${REGEXP_FUNCTION}(?, ?, ?, ${column}) = 1)`
 * ```
 */
export const REGEXP_FUNCTION = 'botshelf_regexp'

/** The `$regex` function of a connection, and how statements run under a budget. */
export interface RegexFunction {
  /**
   * Runs `fn` (a statement that may call the function) with `budget` counting every match it makes; outside
   * such a call, each match is bounded alone by a fresh query budget.
   *
   * @example
   * ```ts
   * const rows = regex.withBudget(queryRegexBudget(), () => statement.all(...params))
   * ```
   */
  withBudget<T>(budget: RegexBudget, fn: () => T): T
}

/**
 * Registers the `$regex` function on a connection: the RE2 matcher of `compileSafeRegex`, so matching stays
 * linear in the value (docs/decisions/0409-linear-time-regex.md), under the `RegexBudget` of the statement
 * running (docs/decisions/0701-input-bounds.md). SQLite calls it synchronously for each candidate row, so no
 * match can move off the event loop: instead a match that could overrun the budget throws the budget's refusal
 * (a `TablesStoreError`), which aborts the statement and reaches the caller as is. A NULL or non-text value never
 * matches.
 *
 * @example
 * ```ts
 * const regex = registerRegexFunction(db)
 * regex.withBudget(queryRegexBudget(), () => db.prepare(`SELECT botshelf_regexp('^a', 'i', 'filter.name.$regex', 'Ada')`).pluck().get()) // 1
 * ```
 */
export function registerRegexFunction(db: Sqlite): RegexFunction {
  let active: RegexBudget | undefined
  db.function(REGEXP_FUNCTION, { deterministic: true, varargs: false }, (pattern: unknown, flags: unknown, path: unknown, value: unknown) => {
    if (typeof value !== 'string') return 0
    const budget = active ?? queryRegexBudget()
    // Checked where it came in (the filter, the schema): here only the budget bounds it.
    return budget.test(compileSafeRegex(String(pattern), String(flags), { bounded: false }), value, String(path)) ? 1 : 0
  })
  return {
    withBudget(budget, fn) {
      const outer = active
      active = budget
      try {
        return fn()
      } finally {
        active = outer
      }
    },
  }
}
