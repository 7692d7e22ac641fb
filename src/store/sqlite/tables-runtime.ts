import type { TableJsonSchema } from '../../api/tables/index.js'
import { quoteIdent } from './tables-columns.js'
import type { ColumnKind } from '../tables/column-kinds.js'
import { systemColumnKinds, tableColumns, type TableColumns } from '../tables/table-columns.js'
import type { ColumnResolver, FilterColumn } from './tables-filter.js'
import { nestedColumn, type NestedFilterColumn } from './tables-filter-nested.js'

/** What queries and writes need to know about one table: its SQLite names and compiled columns. */
export interface TableRuntime extends TableColumns {
  /** SQLite table holding the rows. */
  physical: string
  /** FTS5 table over the searchable columns, when there is one. */
  fts?: string
}

/** System columns every row has, with their SQL and kind. */
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
 * A filter resolver over a table: user columns by name, then the system columns `id`, `createdAt`, `updatedAt`,
 * then dot paths into object columns (`attributes.price`). `alias` prefixes the SQL (`t.c1`).
 *
 * @example
 * ```ts
 * compileFilter(filter, columnResolver(rt, 't'))
 * ```
 */
export function columnResolver(rt: TableRuntime, alias?: string): ColumnResolver {
  const prefix = alias ? `${alias}.` : ''
  return (name: string, path = name): FilterColumn | NestedFilterColumn | undefined => {
    const user = rt.byName.get(name)
    if (user) return { sql: `${prefix}${quoteIdent(user.physical)}`, kind: user.kind }
    const system = systemColumns[name]
    if (system) return { sql: `${prefix}${system.sql}`, kind: system.kind }
    const [head, ...rest] = name.split('.')
    const parent = rest.length > 0 ? rt.byName.get(head!) : undefined
    if (parent && parent.kind === 'object') return nestedColumn(`${prefix}${quoteIdent(parent.physical)}`, rest, path)
    return undefined
  }
}
