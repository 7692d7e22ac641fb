import type { TableSchema } from 'botshelf/api'
import { columnKind } from './column-kinds.js'
import { convertColumnValue } from './schema-change.js'

/**
 * The columns whose stored values a schema change reset to `null`: those kept under the same name whose kind changed
 * to one their values do not carry over to (`convertColumnValue`: any change of JSON type; `string` ↔ `date-time`
 * keeps them). What `updateTable` answers as `resetColumns` (decision 1426).
 *
 * @example
 * ```ts
 * resetColumnsOf(before.schema, after.schema) // ['code'] after { code: { type: 'string' } } on a number column
 * ```
 */
export function resetColumnsOf(before: TableSchema, after: TableSchema): string[] {
  const reset: string[] = []
  for (const [name, column] of Object.entries(after.properties)) {
    const previous = before.properties[name]
    if (!previous) continue
    const from = columnKind(previous)
    const to = columnKind(column)
    if (from === to) continue
    // A sample value of the old kind: reset when it would become null.
    const converted = convertColumnValue(from, to, from === 'date' ? '2026-01-01T00:00:00.000Z' : 'x')
    if (converted.ok && converted.value === null) reset.push(name)
  }
  return reset.sort()
}
