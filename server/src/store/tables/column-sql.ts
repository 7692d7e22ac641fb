import type { ColumnKind } from './column-kinds.js'
import { systemColumnKinds } from './table-columns.js'

/** The SQL of a column a query names (`t."c1"`, `created_at`), as both engines' filter compilers take it. */
export type ColumnSql = (column: string) => string

/**
 * Quotes an SQL identifier the standard way, which SQLite and PostgreSQL share: in double quotes, inner quotes
 * doubled.
 *
 * @example
 * ```ts
 * quoteIdent('ut_01abc') // '"ut_01abc"'
 * ```
 */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}

/**
 * The system columns of every user table, by their wire name: the SQL column and the kind of value.
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
 * The SQL of the columns a query names over a table: user columns by name (their `c<N>` column), then the
 * system columns. `alias` prefixes the SQL (`t."c1"`). Names were checked by the query parser.
 *
 * @example
 * ```ts
 * compileFilterSql(parseFilter(filter, queryColumns(rt)), columnSqlOf(rt, 't'))
 * ```
 */
export function columnSqlOf(rt: { physical: string; byName: ReadonlyMap<string, { physical: string }> }, alias?: string): ColumnSql {
  const prefix = alias ? `${alias}.` : ''
  return (name) => {
    const user = rt.byName.get(name)
    if (user) return `${prefix}${quoteIdent(user.physical)}`
    const system = Object.hasOwn(systemColumns, name) ? systemColumns[name] : undefined
    if (!system) throw new Error(`No column "${name}" in ${rt.physical}`)
    return `${prefix}${system.sql}`
  }
}
