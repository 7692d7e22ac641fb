import { invalidQuery } from '../errors.js'
import { isSystemColumn, type TableColumns } from '../table-columns.js'
import type { RowsProjection } from './find-plan.js'

/**
 * Reads `select`: each entry a column or a dot path into one (`attributes.price`), of a user column, a system
 * column, `computed` or `similarity`. Refuses unknown columns and empty path parts with `InvalidQuery`.
 *
 * @example
 * ```ts
 * planProjection(columns, ['name', 'attributes.price']) // { columns: ['name', 'attributes'], paths: [['name'], ['attributes', 'price']] }
 * ```
 */
export function planProjection(table: Pick<TableColumns, 'columns' | 'byName'>, select: readonly string[]): RowsProjection {
  const needed = new Set<string>()
  const paths: string[][] = []
  select.forEach((entry, i) => {
    const path = entry.split('.')
    const head = path[0]!
    if (path.some((p) => p === '')) throw invalidQuery(`select.${i}: invalid path ${JSON.stringify(entry)}`)
    if (!table.byName.has(head) && !isSystemColumn(head) && head !== 'computed' && head !== 'similarity') {
      throw invalidQuery(`select.${i}: unknown column "${head}"`)
    }
    if (table.byName.has(head)) needed.add(head)
    paths.push(path)
  })
  return { columns: table.columns.filter((c) => needed.has(c.name)).map((c) => c.name), paths }
}

const ALWAYS_KEPT = ['id', 'createdAt', 'updatedAt', 'computed', 'stale', 'similarity']

/** The own property `key` of an object value, or `undefined` (never a prototype's member such as `toString`). */
function ownValue(source: unknown, key: string): unknown {
  return source !== null && typeof source === 'object' && Object.hasOwn(source, key) ? (source as Record<string, unknown>)[key] : undefined
}

/**
 * Copies the selected paths of a row, keeping the system fields; a path with no value is left out. Path parts
 * read own properties only, so `select: ['attrs.toString']` finds a key named `toString` or nothing.
 *
 * @example
 * ```ts
 * projectRow({ id: 1, createdAt: t, updatedAt: t, computed: {}, a: { b: 1, c: 2 } }, [['a', 'b']])
 * // { id: 1, createdAt: t, updatedAt: t, computed: {}, a: { b: 1 } }
 * ```
 */
export function projectRow(row: Record<string, unknown>, paths: readonly string[][]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of ALWAYS_KEPT) if (Object.hasOwn(row, key)) out[key] = row[key]
  for (const path of paths) {
    let source: unknown = row
    for (const part of path) source = ownValue(source, part)
    if (source === undefined) continue
    let target = out
    path.slice(0, -1).forEach((part) => {
      const next = ownValue(target, part)
      if (next === undefined || next === null || typeof next !== 'object') target[part] = {}
      target = target[part] as Record<string, unknown>
    })
    target[path[path.length - 1]!] = source
  }
  return out
}
