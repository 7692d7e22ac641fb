import type { ColumnKind } from '../column-kinds.js'
import { invalidQuery } from '../errors.js'
import { systemColumnKinds, type TableColumns } from '../table-columns.js'
import type { FilterTarget } from './ast.js'

/** The kind of a column a query may name (user or system column), or `undefined` when there is none. */
export type ColumnKindLookup = (name: string) => ColumnKind | undefined

/**
 * The columns of a table as a query sees them: user columns by name, then the system columns `id`,
 * `createdAt`, `updatedAt`.
 *
 * @example
 * ```ts
 * const kindOf = queryColumns(tableColumns(record.schema, record.physicalMap))
 * kindOf('createdAt') // 'date'
 * ```
 */
export function queryColumns(table: Pick<TableColumns, 'byName'>): ColumnKindLookup {
  return (name) => table.byName.get(name)?.kind ?? (Object.hasOwn(systemColumnKinds, name) ? systemColumnKinds[name as keyof typeof systemColumnKinds] : undefined)
}

// Segments end up in JSON path strings: no quotes, backslashes or control characters.
const SEGMENT = /^[^"\\\u0000-\u001f]+$/

/**
 * Resolves a name a query gives: a column (user or system), or a dot path into an object column
 * (`attributes.price`); `undefined` when it is neither. A path segment holding `"`, `\` or a control character
 * is refused with `InvalidQuery` naming `path`.
 *
 * @example
 * ```ts
 * resolveTarget(kindOf, 'attributes.price', 'filter.attributes.price') // { type: 'path', column: 'attributes', path: ['price'] }
 * resolveTarget(kindOf, 'age', 'filter.age') // { type: 'column', column: 'age', kind: 'number' }
 * ```
 */
export function resolveTarget(kindOf: ColumnKindLookup, name: string, path: string): FilterTarget | undefined {
  const kind = kindOf(name)
  if (kind !== undefined) return { type: 'column', column: name, kind }
  const [head, ...segments] = name.split('.')
  if (segments.length === 0 || kindOf(head!) !== 'object') return undefined
  for (const segment of segments) {
    if (!SEGMENT.test(segment)) throw invalidQuery(`${path}: invalid path segment ${JSON.stringify(segment)}`)
  }
  return { type: 'path', column: head!, path: segments }
}
