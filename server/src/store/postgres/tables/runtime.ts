import type { TableJsonSchema } from 'botshelf/api'
import { parseFilter, queryColumns, type FilterNode } from '../../tables/filter/index.js'
import { tableColumns, type TableColumns } from '../../tables/table-columns.js'
import { columnSqlOf, systemColumns, type ColumnSql } from '../../tables/column-sql.js'
import type { TableRecord } from '../../tables/types.js'

/** What queries and writes need to know about one table: its PostgreSQL table and compiled columns. */
export interface PgTableRuntime extends TableColumns {
  /** PostgreSQL table holding the rows. */
  physical: string
}

/**
 * Name of the generated `tsvector` column over the searchable columns (present only when there are some).
 *
 * @example
 * ```ts
 * `${SEARCH_COLUMN} @@ query`
 * ```
 */
export const SEARCH_COLUMN = 'search_vector'

/**
 * The runtime (PostgreSQL names and compiled columns) of a catalog record.
 *
 * @example
 * ```ts
 * runtimeOf(record).byName.get('name')?.physical // 'c1'
 * ```
 */
export function runtimeOf(record: Pick<TableRecord, 'physical' | 'schema' | 'physicalMap'>): PgTableRuntime {
  return runtimeFor(record.physical, record.schema, record.physicalMap)
}

/**
 * The runtime of a physical table with this schema and column map.
 *
 * @example
 * ```ts
 * runtimeFor('ut_01abc', schema, { name: 'c1' })
 * ```
 */
export function runtimeFor(physical: string, schema: TableJsonSchema, physicalMap: Record<string, string>): PgTableRuntime {
  return { physical, ...tableColumns(schema, physicalMap) }
}

/**
 * Validates a wire filter against the table (`InvalidQuery` before any SQL).
 *
 * @example
 * ```ts
 * const node = parseTableFilter(rt, { total: { $lt: 1 } })
 * ```
 */
export function parseTableFilter(rt: PgTableRuntime, filter: unknown): FilterNode {
  return parseFilter(filter, queryColumns(rt))
}

// The column SQL and the system columns are the tables port's: the same on every engine.
export { columnSqlOf, systemColumns, type ColumnSql }
