import { quoteIdent } from './columns.js'
import type { TablesContext } from './context.js'
import { loadTable } from './catalog.js'

/**
 * The bytes a table's rows store (decision 1463): the UTF-8 length of the text form of every non-null user column
 * value, summed in one aggregate query (ids and times are not counted). What the import byte quotas measure.
 *
 * @example
 * ```ts
 * storedBytes(context, 'bot_1', 'ordersTable') // 1834
 * ```
 */
export function storedBytes(context: TablesContext, botId: string, ref: string): number {
  const record = loadTable(context, botId, ref)
  const physical = Object.values(record.physicalMap)
  if (physical.length === 0) return 0
  const sum = physical.map((column) => `COALESCE(length(CAST(${quoteIdent(column)} AS BLOB)), 0)`).join(' + ')
  return context.prepare(`SELECT COALESCE(SUM(${sum}), 0) FROM ${quoteIdent(record.physical)}`).pluck().get() as number
}
