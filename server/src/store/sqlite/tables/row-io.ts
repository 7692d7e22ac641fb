import type { Row } from 'botshelf/api'
import { tablesLimits } from 'botshelf/api'
import { keyConflict, rowIdsExhausted } from '../../tables/row-rules.js'
import type { TableRecord } from '../../tables/types.js'
import { decodeValue, encodeValue, quoteIdent } from './columns.js'
import { isUniqueViolation, type TablesContext } from './context.js'
import type { TableRuntime } from './runtime.js'
import { storedRowReader, type RawRow } from '../../tables/stored-row.js'

export type { RawRow } from '../../tables/stored-row.js'

/** The wire row of a stored row, and its user values without empty columns, read with this engine's decoder. */
export const { rowFromRaw, userData } = storedRowReader(decodeValue)

/**
 * The SQLite rows with these ids, by id (missing ids are absent), read 500 at a time.
 *
 * @example
 * ```ts
 * const current = selectRows(context, rt, [1, 2, 3])
 * ```
 */
export function selectRows(context: TablesContext, rt: TableRuntime, ids: readonly number[]): Map<number, RawRow> {
  const found = new Map<number, RawRow>()
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500)
    const rows = context.db.prepare(`SELECT * FROM ${quoteIdent(rt.physical)} WHERE id IN (${chunk.map(() => '?').join(', ')})`).all(...chunk) as RawRow[]
    for (const row of rows) found.set(row['id'] as number, row)
  }
  return found
}

/**
 * Inserts one validated row (values of every column) and returns it. A duplicate key column value is
 * `KEY_CONFLICT` naming `rows.<index>`.
 *
 * @example
 * ```ts
 * const row = insertRow(context, record, rt, validated.rows[0]!, 0, context.timestamp())
 * ```
 */
export function insertRow(context: TablesContext, record: TableRecord, rt: TableRuntime, values: Map<string, unknown>, index: number, now: string): Row {
  const encoded = rt.columns.map((c) => encodeValue(c.kind, values.get(c.name)))
  const columns = ['created_at', 'updated_at', ...rt.columns.map((c) => quoteIdent(c.physical))]
  const insert = context.prepare(`INSERT INTO ${quoteIdent(rt.physical)} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`)
  let id: number
  try {
    id = Number(insert.run(now, now, ...encoded).lastInsertRowid)
  } catch (error) {
    if (isUniqueViolation(error) && record.keyColumn) throw keyConflict(record.keyColumn, index, values.get(record.keyColumn))
    throw error
  }
  if (id > tablesLimits.maxRowId) throw rowIdsExhausted(index)
  const row: Row = { id, createdAt: now, updatedAt: now, computed: {} }
  rt.columns.forEach((c, i) => (row[c.name] = decodeValue(c.kind, encoded[i])))
  return row
}

/**
 * Writes the validated values a patch sets (others stay) and bumps `updated_at`. A duplicate key column
 * value is `KEY_CONFLICT` naming `rows.<index>`.
 *
 * @example
 * ```ts
 * patchRow(context, record, rt, 7, new Map([['total', 13]]), 0, context.timestamp())
 * ```
 */
export function patchRow(context: TablesContext, record: TableRecord, rt: TableRuntime, id: number, values: Map<string, unknown>, index: number, now: string): void {
  const table = quoteIdent(rt.physical)
  if (values.size === 0) {
    context.prepare(`UPDATE ${table} SET updated_at = ? WHERE id = ?`).run(now, id)
    return
  }
  const columns = [...values.keys()].map((name) => rt.byName.get(name)!)
  const sets = columns.map((c) => `${quoteIdent(c.physical)} = ?`).join(', ')
  try {
    context.prepare(`UPDATE ${table} SET ${sets}, updated_at = ? WHERE id = ?`).run(...columns.map((c) => encodeValue(c.kind, values.get(c.name))), now, id)
  } catch (error) {
    if (isUniqueViolation(error) && record.keyColumn) throw keyConflict(record.keyColumn, index, values.get(record.keyColumn) ?? null)
    throw error
  }
}
