import type { FilterNode } from '../../tables/filter/index.js'
import type { RegexBudget } from '../../tables/regex-budget.js'
import { compileSafeRegex } from '../../tables/safe-regex.js'
import { quoteIdent, type PgTablesContext } from './context.js'
import { compileFilterSql, regexConditions, regexSubject, type RegexMatches, type RegexNode } from './filter-sql.js'
import { SqlParams } from './params.js'
import { columnSqlOf, type PgTableRuntime } from './runtime.js'

const ALIAS = 't'
/** Values read per round trip while matching. */
const BATCH = 500

/**
 * Finds, for each `$regex` condition of a filter, the values it matches (docs/decisions/0910-postgres-tables.md).
 * PostgreSQL's regular expressions are not RE2 (backtracking, other syntax), so `$regex` runs where it runs on
 * SQLite: in the process, with the RE2 matcher of `compileSafeRegex`, under `budget` (decision 0701). The
 * distinct values of the rows the condition decides (those meeting its AND siblings) are read in batches and
 * each is matched once; the filter then compiles the condition to "the value is one of the matches". A refusal
 * of the budget stops the reading and reaches the caller as is. Run it and the query in one snapshot
 * (`consistently`).
 *
 * @example
 * ```ts
 * const matches = await matchRegexValues(tx, rt, filter, queryRegexBudget())
 * const where = compileFilterSql(filter, columnSqlOf(rt, 't'), params, matches)
 * ```
 */
export async function matchRegexValues(context: PgTablesContext, rt: PgTableRuntime, filter: FilterNode, budget: RegexBudget): Promise<RegexMatches> {
  const matches = new Map<RegexNode, string[]>()
  const columnSql = columnSqlOf(rt, ALIAS)
  for (const { node, context: conditions } of regexConditions(filter)) {
    const regex = compileSafeRegex(node.pattern, node.flags, { bounded: false })
    const params = new SqlParams()
    const subject = regexSubject(node, columnSql, params)
    const where = conditions.length > 0 ? ` AND ${compileFilterSql({ type: 'and', nodes: conditions }, columnSql, params)}` : ''
    const text = `SELECT DISTINCT ${subject.value} AS v FROM ${quoteIdent(rt.physical)} ${ALIAS} WHERE ${subject.guard}${where}`
    const found: string[] = []
    for await (const rows of context.sql.unsafe(text, params.values as never[]).cursor(BATCH)) {
      for (const row of rows) {
        const value = (row as Record<string, unknown>)['v'] as string
        if (budget.test(regex, value, node.path)) found.push(value)
      }
    }
    matches.set(node, found)
  }
  return matches
}
