import type { Column, TableJsonSchema } from 'botshelf/api'
import { columnKind, type ColumnKind } from './column-kinds.js'
import { compileSafeRegex, type SafeRegex } from './safe-regex.js'

/** A user column with what validating, filtering and storing its values needs, compiled once per request. */
export interface TableColumn {
  name: string
  /** The backend's name for the column (`c<N>`, from the record's `physicalMap`; stable across renames). */
  physical: string
  kind: ColumnKind
  column: Column
  required: boolean
  nullable: boolean
  pattern?: SafeRegex
}

/** The user columns of a table in `x-zui.index` order, by name, and those full-text search covers. */
export interface TableColumns {
  columns: TableColumn[]
  byName: Map<string, TableColumn>
  searchable: TableColumn[]
}

/**
 * The system columns every row has (filterable, sortable, selectable), and their kinds.
 *
 * @example
 * ```ts
 * systemColumnKinds.createdAt // 'date'
 * ```
 */
export const systemColumnKinds: Readonly<Record<'id' | 'createdAt' | 'updatedAt', ColumnKind>> = {
  id: 'number',
  createdAt: 'date',
  updatedAt: 'date',
}

/**
 * Tells whether a name is one of the system columns `id`, `createdAt`, `updatedAt`.
 *
 * @example
 * ```ts
 * isSystemColumn('createdAt') // true
 * ```
 */
export function isSystemColumn(name: string): name is keyof typeof systemColumnKinds {
  return Object.hasOwn(systemColumnKinds, name)
}

/**
 * Compiles a table's normalized schema and physical column map into its columns.
 *
 * @example
 * ```ts
 * tableColumns(record.schema, record.physicalMap).byName.get('name')?.physical // 'c1'
 * ```
 */
export function tableColumns(schema: TableJsonSchema, physicalMap: Record<string, string>): TableColumns {
  const required = new Set(schema.required ?? [])
  const columns = Object.entries(schema.properties)
    .sort((a, b) => a[1]['x-zui'].index - b[1]['x-zui'].index)
    .map(([name, column]) => {
      if (!Object.hasOwn(physicalMap, name)) throw new Error(`The catalog maps no backend column to column "${name}"`)
      return tableColumn(name, column, physicalMap[name]!, required.has(name))
    })
  return { columns, byName: new Map(columns.map((c) => [c.name, c])), searchable: columns.filter((c) => c.column['x-zui'].searchable === true) }
}

/**
 * One column definition compiled (its kind, nullability and `pattern`).
 *
 * @example
 * ```ts
 * tableColumn('email', { type: 'string', 'x-zui': { index: 0 } }, 'c1', true).kind // 'string'
 * ```
 */
export function tableColumn(name: string, column: Column, physical: string, required: boolean): TableColumn {
  const compiled: TableColumn = { name, physical, kind: columnKind(column), column, required, nullable: column.nullable !== false }
  // Accepted into the catalog already (possibly before the limits of decision 0701): bounded where it runs.
  if (column.pattern !== undefined) compiled.pattern = compileSafeRegex(column.pattern, 'u', { bounded: false })
  return compiled
}
