import type { Row } from 'botshelf/api'
import { queryRegexBudget } from '../../tables/regex-budget.js'
import { checkDeleteMode, checkRowBatch, missingRows, rowNotFound } from '../../tables/row-rules.js'
import { rowProblemsError, validatePatches, validateRows } from '../../tables/row-validation.js'
import type { RowsWriteResult } from '../../tables/types.js'
import { loadTable } from './catalog.js'
import { runtimeOf } from './catalog-records.js'
import { quoteIdent } from './columns.js'
import type { TablesContext } from './context.js'
import { insertRow, patchRow, rowFromRaw, selectRows, userData, type RawRow } from './row-io.js'
import { filterWhere } from './runtime.js'

/**
 * One row by id, or `ResourceNotFound`.
 *
 * @example
 * ```ts
 * const row = getRow(context, 'bot_1', 'ordersTable', 1)
 * ```
 */
export function getRow(context: TablesContext, botId: string, ref: string, id: number): Row {
  const record = loadTable(context, botId, ref)
  const rt = runtimeOf(record)
  const raw = context.prepare(`SELECT * FROM ${quoteIdent(rt.physical)} WHERE id = ?`).get(id) as RawRow | undefined
  if (!raw) throw rowNotFound(id, record.name)
  return rowFromRaw(rt, raw)
}

function insertAll(context: TablesContext, botId: string, ref: string, input: ReadonlyArray<Record<string, unknown>>, firstRowIndex: number): RowsWriteResult {
  return context.db.transaction(() => {
    const record = loadTable(context, botId, ref)
    const rt = runtimeOf(record)
    const validated = validateRows(rt.columns, input, 'insert', record.factor)
    if (validated.problems.length > 0) throw rowProblemsError(validated.problems, firstRowIndex)
    const now = context.timestamp()
    const rows = validated.rows.map((values, index) => insertRow(context, record, rt, values, firstRowIndex + index, now))
    return { rows, warnings: validated.warnings }
  })()
}

/**
 * Inserts 1 to 1000 rows, all or nothing (docs/decisions/0403-all-or-nothing-writes.md). Values are validated
 * against the schema; keys that are not columns are ignored with a warning.
 *
 * @example
 * ```ts
 * const { rows } = createRows(context, 'bot_1', 'ordersTable', [{ total: 12 }, { total: 30 }])
 * ```
 */
export function createRows(context: TablesContext, botId: string, ref: string, input: ReadonlyArray<Record<string, unknown>>): RowsWriteResult {
  checkRowBatch(input.length)
  return insertAll(context, botId, ref, input, 0)
}

/**
 * Inserts any number of rows in one transaction, all or nothing, validated as `createRows` does. Errors number
 * rows from `firstRowIndex` (`rows.<firstRowIndex + i>`), so a file imported in parts reports file positions.
 *
 * @example
 * ```ts
 * importRows(context, 'bot_1', 'ordersTable', rowsFromCsv) // { inserted: 2, warnings: [] }
 * importRows(context, 'bot_1', 'ordersTable', nextThousand, 1000)
 * ```
 */
export function importRows(
  context: TablesContext,
  botId: string,
  ref: string,
  input: ReadonlyArray<Record<string, unknown>>,
  firstRowIndex = 0,
): { inserted: number; ids: number[]; warnings: string[] } {
  const { rows, warnings } = insertAll(context, botId, ref, input, firstRowIndex)
  return { inserted: rows.length, ids: rows.map((row) => row.id), warnings }
}

/**
 * Changes the named columns of 1 to 1000 rows by id (`null` clears a column), all or nothing.
 * An unknown id is `ResourceNotFound`.
 *
 * @example
 * ```ts
 * updateRows(context, 'bot_1', 'ordersTable', [{ id: 1, total: 13 }])
 * ```
 */
export function updateRows(context: TablesContext, botId: string, ref: string, input: ReadonlyArray<Record<string, unknown> & { id: number }>): RowsWriteResult {
  checkRowBatch(input.length)
  return context.db.transaction(() => {
    const record = loadTable(context, botId, ref)
    const rt = runtimeOf(record)
    const ids = input.map((r) => r.id)
    const current = selectRows(context, rt, [...new Set(ids)])
    const missing = ids.filter((id) => !current.has(id))
    if (missing.length > 0) throw missingRows('rows', missing, record.name)
    const before = new Map([...current].map(([id, raw]) => [id, userData(rt, raw)]))
    const validated = validatePatches(rt.columns, input, record.factor, before)
    if (validated.problems.length > 0) throw rowProblemsError(validated.problems)
    const now = context.timestamp()
    validated.rows.forEach((values, index) => patchRow(context, record, rt, input[index]!.id, values, index, now))
    const after = selectRows(context, rt, [...new Set(ids)])
    return { rows: ids.map((id) => rowFromRaw(rt, after.get(id)!)), warnings: validated.warnings }
  })()
}

/**
 * Deletes rows by `ids`, by `filter`, or all of them (exactly one of the three).
 *
 * @example
 * ```ts
 * deleteRows(context, 'bot_1', 'ordersTable', { filter: { total: { $lt: 1 } } }) // { deletedRows: 3 }
 * ```
 */
export function deleteRows(
  context: TablesContext,
  botId: string,
  ref: string,
  input: { ids?: number[]; filter?: Record<string, unknown>; deleteAllRows?: boolean },
): { deletedRows: number } {
  checkDeleteMode(input)
  return context.db.transaction(() => {
    const rt = runtimeOf(loadTable(context, botId, ref))
    const table = quoteIdent(rt.physical)
    if (input.ids !== undefined) {
      if (input.ids.length === 0) return { deletedRows: 0 }
      return { deletedRows: context.db.prepare(`DELETE FROM ${table} WHERE id IN (${input.ids.map(() => '?').join(', ')})`).run(...input.ids).changes }
    }
    if (input.filter !== undefined) {
      const where = filterWhere(rt, input.filter)
      const statement = context.db.prepare(`DELETE FROM ${table} WHERE ${where.sql}`)
      return { deletedRows: context.withRegexBudget(queryRegexBudget(), () => statement.run(...where.params)).changes }
    }
    return { deletedRows: context.db.prepare(`DELETE FROM ${table}`).run().changes }
  })()
}
