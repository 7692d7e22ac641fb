import type { Column, TableJsonSchema } from '../../api/tables/index.js'
import { quoteIdent } from './tables-columns.js'
import { columnKind, type ColumnKind } from '../tables/column-kinds.js'
import type { ColumnResolver, FilterColumn } from './tables-filter.js'
import { nestedColumn, type NestedFilterColumn } from './tables-filter-nested.js'
import type { ColumnRuntime } from './tables-row-validation.js'
import { compileSafeRegex } from '../tables/safe-regex.js'

/** What queries and writes need to know about one table: its SQL names and compiled columns. */
export interface TableRuntime {
  /** SQLite table holding the rows. */
  physical: string
  /** FTS5 table over the searchable columns, when there is one. */
  fts?: string
  /** User columns in `x-zui.index` order. */
  columns: ColumnRuntime[]
  byName: Map<string, ColumnRuntime>
  searchable: ColumnRuntime[]
}

/** System columns every row has, with their SQL and kind. */
export const systemColumns: Readonly<Record<string, { sql: string; kind: ColumnKind }>> = {
  id: { sql: 'id', kind: 'number' },
  createdAt: { sql: 'created_at', kind: 'date' },
  updatedAt: { sql: 'updated_at', kind: 'date' },
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
  const required = new Set(schema.required ?? [])
  const entries = Object.entries(schema.properties).sort((a, b) => a[1]['x-zui'].index - b[1]['x-zui'].index)
  const columns: ColumnRuntime[] = entries.map(([name, column]) => runtimeColumn(name, column, physicalMap[name]!, required.has(name)))
  const searchable = columns.filter((c) => c.column['x-zui'].searchable === true)
  const runtime: TableRuntime = { physical, columns, byName: new Map(columns.map((c) => [c.name, c])), searchable }
  if (searchable.length > 0) runtime.fts = `${physical}_fts`
  return runtime
}

function runtimeColumn(name: string, column: Column, physical: string, required: boolean): ColumnRuntime {
  const rt: ColumnRuntime = {
    name,
    physical,
    kind: columnKind(column),
    column,
    required,
    nullable: column.nullable !== false,
  }
  if (column.pattern !== undefined) rt.pattern = compileSafeRegex(column.pattern, 'u')
  return rt
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
