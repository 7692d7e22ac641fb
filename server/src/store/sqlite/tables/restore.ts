import type { Table } from 'botshelf/api'
import { rowProblemsError, validateRows } from '../../tables/row-validation.js'
import { keyConflict } from '../../tables/row-rules.js'
import { tableNameTaken } from '../../tables/table-rules.js'
import { checkRowSnapshot, recordFromSnapshot, rowValues, type RowSnapshot, type TableSnapshot } from '../../tables/table-snapshot.js'
import { tableToWire } from '../../tables/table-wire.js'
import { loadTable, checkNameFree } from './catalog.js'
import { insertRecord, physicalTableName, runtimeOf } from './catalog-records.js'
import { encodeValue, quoteIdent } from './columns.js'
import { isUniqueViolation, type TablesContext } from './context.js'
import { createRowsTable } from './ddl.js'

/**
 * Creates a table as an archive describes it: its id, name, schema, settings, tags and times (`botshelf import`).
 *
 * @example
 * ```ts
 * restoreTable(context, 'bot_1', snapshot) // the table, with snapshot.id
 * ```
 */
export function restoreTable(context: TablesContext, botId: string, snapshot: TableSnapshot): Table {
  return context.db.transaction(() => {
    const record = { ...recordFromSnapshot(snapshot, physicalTableName(snapshot.id)), botId }
    checkNameFree(context, botId, record.name)
    if (context.prepare('SELECT 1 FROM tables_catalog WHERE id = ?').get(record.id) !== undefined) throw tableNameTaken(record.id)
    insertRecord(context, record)
    createRowsTable(context.db, runtimeOf(record), record.keyColumn)
    return tableToWire(record)
  })()
}

/**
 * Inserts rows with their own ids and times, all or nothing, validated as `importRows` does. SQLite's
 * AUTOINCREMENT counter moves past the largest id by itself.
 *
 * @example
 * ```ts
 * restoreRows(context, 'bot_1', 'ordersTable', [{ id: 7, createdAt, updatedAt, total: 12 }]) // { inserted: 1 }
 * ```
 */
export function restoreRows(context: TablesContext, botId: string, ref: string, input: ReadonlyArray<RowSnapshot>, firstRowIndex = 0): { inserted: number } {
  return context.db.transaction(() => {
    const record = loadTable(context, botId, ref)
    const rt = runtimeOf(record)
    input.forEach((row, index) => checkRowSnapshot(row, firstRowIndex + index))
    const validated = validateRows(rt.columns, input.map(rowValues), 'insert', record.factor)
    if (validated.problems.length > 0) throw rowProblemsError(validated.problems, firstRowIndex)
    const columns = ['id', 'created_at', 'updated_at', ...rt.columns.map((c) => quoteIdent(c.physical))]
    const insert = context.prepare(`INSERT INTO ${quoteIdent(rt.physical)} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`)
    validated.rows.forEach((values, index) => {
      const row = input[index]!
      try {
        insert.run(row.id, row.createdAt, row.updatedAt, ...rt.columns.map((c) => encodeValue(c.kind, values.get(c.name))))
      } catch (error) {
        if (isUniqueViolation(error) && record.keyColumn) throw keyConflict(record.keyColumn, firstRowIndex + index, values.get(record.keyColumn))
        if (isUniqueViolation(error)) throw keyConflict('id', firstRowIndex + index, row.id)
        throw error
      }
    })
    return { inserted: validated.rows.length }
  })()
}
