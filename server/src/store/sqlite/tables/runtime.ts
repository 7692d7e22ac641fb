import type { TableJsonSchema } from 'botshelf/api'
import { quoteIdent } from './columns.js'
import { tableColumns, type TableColumns } from '../../tables/table-columns.js'
import { columnSqlOf, systemColumns } from '../../tables/column-sql.js'
import { parseFilter, queryColumns } from '../../tables/filter/index.js'
import { compileFilterSql, type CompiledSql } from './filter-sql.js'

/** What queries and writes need to know about one table: its SQLite names and compiled columns. */
export interface TableRuntime extends TableColumns {
  /** SQLite table holding the rows. */
  physical: string
  /** FTS5 table over the searchable columns, when there is one. */
  fts?: string
}


/**
 * Compiles a table's normalized schema and physical column map into a runtime.
 *
 * @example
 * ```ts
 * const rt = buildTableRuntime('ut_01abc', schema, { name: 'c1' })
 * rt.byName.get('name')?.physical // 'c1'
 * ```
 */
export function buildTableRuntime(physical: string, schema: TableJsonSchema, physicalMap: Record<string, string>): TableRuntime {
  const runtime: TableRuntime = { physical, ...tableColumns(schema, physicalMap) }
  if (runtime.searchable.length > 0) runtime.fts = `${physical}_fts`
  return runtime
}


/**
 * Validates a wire filter against the table and compiles it to a SQL condition (`InvalidQuery` before any SQL).
 *
 * @example
 * ```ts
 * const where = filterWhere(rt, { total: { $lt: 1 } })
 * db.prepare(`DELETE FROM ${quoteIdent(rt.physical)} WHERE ${where.sql}`).run(...where.params)
 * ```
 */
export function filterWhere(rt: TableRuntime, filter: unknown, alias?: string): CompiledSql {
  return compileFilterSql(parseFilter(filter, queryColumns(rt)), columnSqlOf(rt, alias))
}

// The column SQL and the system columns are the tables port's: the same on every engine.
export { columnSqlOf, systemColumns }
