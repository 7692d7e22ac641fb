import type { Table } from 'botshelf/api'
import { keyConflict } from '../../tables/row-rules.js'
import { rowProblemsError, validateRows } from '../../tables/row-validation.js'
import { tableNameTaken } from '../../tables/table-rules.js'
import { checkRowSnapshot, recordFromSnapshot, rowValues, type RowSnapshot, type TableSnapshot } from '../../tables/table-snapshot.js'
import { tableToWire } from '../../tables/table-wire.js'
import { checkNameFree, lockTable } from './catalog.js'
import { insertRecord, physicalTableName } from './catalog-records.js'
import { atomically, query, sqlState, UNIQUE_VIOLATION, type PgTablesContext } from './context.js'
import { createRowsTable } from './ddl.js'
import { insertRows } from './row-io.js'
import { runtimeOf } from './runtime.js'

/**
 * Creates a table as an archive describes it: its id, name, schema, settings, tags and times (`botshelf import`).
 *
 * @example
 * ```ts
 * await restoreTable(context, 'bot_1', snapshot) // the table, with snapshot.id
 * ```
 */
export async function restoreTable(context: PgTablesContext, botId: string, snapshot: TableSnapshot): Promise<Table> {
  return atomically(context, async (tx) => {
    const record = { ...recordFromSnapshot(snapshot, physicalTableName(snapshot.id)), botId }
    await checkNameFree(tx, botId, record.name)
    const [taken] = await query(tx, 'SELECT 1 AS found FROM tables_catalog WHERE id = $1::text', [record.id])
    if (taken) throw tableNameTaken(record.id)
    await insertRecord(tx, record, 0)
    await createRowsTable(tx, runtimeOf(record), record.keyColumn)
    return tableToWire(record)
  })
}

/**
 * Inserts rows with their own ids and times, all or nothing, validated as `importRows` does; the catalog's last row
 * id moves to the largest one given (when larger).
 *
 * @example
 * ```ts
 * await restoreRows(context, 'bot_1', 'ordersTable', [{ id: 7, createdAt, updatedAt, total: 12 }]) // { inserted: 1 }
 * ```
 */
export async function restoreRows(context: PgTablesContext, botId: string, ref: string, input: ReadonlyArray<RowSnapshot>, firstRowIndex = 0): Promise<{ inserted: number }> {
  return atomically(context, async (tx) => {
    const { record, lastRowId } = await lockTable(tx, botId, ref)
    const rt = runtimeOf(record)
    input.forEach((row, index) => checkRowSnapshot(row, firstRowIndex + index))
    const validated = validateRows(rt.columns, input.map(rowValues), 'insert', record.factor)
    if (validated.problems.length > 0) throw rowProblemsError(validated.problems, firstRowIndex)
    try {
      await insertRows(tx, rt, validated.rows, 0, tx.timestamp(), input.map((row) => row.id), input)
    } catch (error) {
      if (sqlState(error) === UNIQUE_VIOLATION) throw keyConflict(record.keyColumn ?? 'id', firstRowIndex, null)
      throw error
    }
    const largest = input.reduce((max, row) => Math.max(max, row.id), lastRowId)
    await query(tx, 'UPDATE tables_catalog SET last_row_id = $2::int WHERE id = $1::text', [record.id, largest])
    return { inserted: validated.rows.length }
  })
}
