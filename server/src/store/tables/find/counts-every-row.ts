import { systemColumns } from '../column-sql.js'
import type { GroupOutput } from './find-plan.js'

/**
 * Whether a group output counts every row its group holds: a `count` over a system column (`id`, `createdAt`,
 * `updatedAt`), which is never NULL. Both adapters compile it to `COUNT(*)`, the form the engines answer without
 * reading a column (SQLite's count opcode when nothing filters the table; decision 1479).
 *
 * @example
 * ```ts
 * countsEveryRow({ key: 'idCount', column: 'id', op: 'count', kind: 'number' }) // true
 * countsEveryRow({ key: 'nameCount', column: 'name', op: 'count', kind: 'string' }) // false: NULLs are not counted
 * ```
 */
export function countsEveryRow(output: Pick<GroupOutput, 'column' | 'op'>): boolean {
  return output.op === 'count' && Object.hasOwn(systemColumns, output.column)
}
