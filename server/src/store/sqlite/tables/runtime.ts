import type { TableJsonSchema } from 'botshelf/api'
import { quoteIdent } from './columns.js'
import type { ColumnKind } from '../../tables/column-kinds.js'
import { systemColumnKinds, tableColumns, type TableColumns } from '../../tables/table-columns.js'
import { parseFilter, queryColumns } from '../../tables/filter/index.js'
import { compileFilterSql, type ColumnSql, type CompiledSql } from './filter-sql.js'

/** What queries and writes need to know about one table: its SQLite names and compiled columns. */
export interface TableRuntime extends TableColumns {
  /** SQLite table holding the rows. */
  physical: string
  /** FTS5 table over the searchable columns, when there is one. */
  fts?: string
}

/**
 * System columns every row has, with their SQL and kind.
 *
 * @example
 * ```ts
 * systemColumns['createdAt'] // { sql: 'created_at', kind: 'date' }
 * ```
 */
export const systemColumns: Readonly<Record<string, { sql: string; kind: ColumnKind }>> = {
  id: { sql: 'id', kind: systemColumnKinds.id },
  createdAt: { sql: 'created_at', kind: systemColumnKinds.createdAt },
  updatedAt: { sql: 'updated_at', kind: systemColumnKinds.updatedAt },
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
 * The SQL of the columns a query names over a table: user columns by name (their `c<N>` column), then the
 * system columns. `alias` prefixes the SQL (`t."c1"`). Names were checked by the query parser.
 *
 * @example
 * ```ts
 * compileFilterSql(parseFilter(filter, queryColumns(rt)), columnSqlOf(rt, 't'))
 * ```
 */
export function columnSqlOf(rt: TableRuntime, alias?: string): ColumnSql {
  const prefix = alias ? `${alias}.` : ''
  return (name) => {
    const user = rt.byName.get(name)
    if (user) return `${prefix}${quoteIdent(user.physical)}`
    const system = Object.hasOwn(systemColumns, name) ? systemColumns[name] : undefined
    if (!system) throw new Error(`No column "${name}" in ${rt.physical}`)
    return `${prefix}${system.sql}`
  }
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
