import type { TableJsonSchema } from 'botshelf/api'
import type { ColumnKind } from '../../tables/column-kinds.js'
import { parseFilter, queryColumns, type FilterNode } from '../../tables/filter/index.js'
import { systemColumnKinds, tableColumns, type TableColumns } from '../../tables/table-columns.js'
import type { TableRecord } from '../../tables/types.js'
import { quoteIdent } from './context.js'

/** What queries and writes need to know about one table: its PostgreSQL table and compiled columns. */
export interface PgTableRuntime extends TableColumns {
  /** PostgreSQL table holding the rows. */
  physical: string
}

/** The SQL expression of a column a query names (user column by name, or `id`, `createdAt`, `updatedAt`). */
export type ColumnSql = (column: string) => string

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
 * The SQL of the columns a query names: user columns by name (their `c<N>` column), then the system columns.
 * `alias` prefixes the SQL (`t."c1"`). Names were checked by the query parser.
 *
 * @example
 * ```ts
 * columnSqlOf(rt, 't')('name') // 't."c1"'
 * ```
 */
export function columnSqlOf(rt: PgTableRuntime, alias?: string): ColumnSql {
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
