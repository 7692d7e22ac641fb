import { loadTable } from './catalog.js'
import { query, quoteIdent, type PgTablesContext } from './context.js'

/**
 * The bytes a table's rows store (decision 1463): the UTF-8 length of the text form of every non-null user column
 * value, summed in one aggregate query (ids and times are not counted). What the import byte quotas measure.
 *
 * @example
 * ```ts
 * await storedBytes(context, 'bot_1', 'ordersTable') // 1834
 * ```
 */
export async function storedBytes(context: PgTablesContext, botId: string, ref: string): Promise<number> {
  const record = await loadTable(context, botId, ref)
  const physical = Object.values(record.physicalMap)
  if (physical.length === 0) return 0
  const sum = physical.map((column) => `COALESCE(octet_length(${quoteIdent(column)}::text), 0)`).join(' + ')
  const [row] = await query(context, `SELECT COALESCE(SUM(${sum}), 0)::bigint::text AS n FROM ${quoteIdent(record.physical)}`)
  return Number(row!['n'])
}
