import type { Table } from 'botshelf/api'
import { checkKeyColumn, checkTableUpdate, keyColumnNotUnique, normalizeKeyColumn, tableNameTaken } from '../../tables/table-rules.js'
import { schemaColumn } from '../../tables/table-schema.js'
import { tableToWire } from '../../tables/table-wire.js'
import type { TableRecord, UpdateTableInput } from '../../tables/types.js'
import { saveRecord } from './catalog-records.js'
import { checkNameFree, loadTable } from './catalog.js'
import { atomically, sqlState, UNIQUE_VIOLATION, type PgTablesContext } from './context.js'
import { createKeyIndex, dropKeyIndex } from './ddl.js'
import { runtimeOf } from './runtime.js'
import { applySchemaChange } from './schema-apply.js'

/** Moves the unique index to the new key column (or drops it); duplicates are `KEY_CONFLICT`. */
async function applyKeyColumn(context: PgTablesContext, record: TableRecord, keyColumn: string | null): Promise<void> {
  await dropKeyIndex(context, record.physical)
  record.keyColumn = keyColumn
  if (keyColumn === null) return
  checkKeyColumn(record.schema, keyColumn)
  try {
    await createKeyIndex(context, runtimeOf(record), keyColumn)
  } catch (error) {
    if (sqlState(error) !== UNIQUE_VIOLATION) throw error
    throw keyColumnNotUnique(keyColumn)
  }
}

/**
 * Updates a table (docs/decisions/0404-update-table-rules.md): name, tags, `isComputeEnabled`, `frozen`, `factor`
 * (only up), `keyColumn` (`null`/`""` removes it), and `schema` merged column by column. All or nothing.
 *
 * @example
 * ```ts
 * await updateTable(context, 'bot_1', 'ordersTable', { schema: { note: { type: 'string' } }, factor: 2 })
 * ```
 */
export async function updateTable(context: PgTablesContext, botId: string, ref: string, input: UpdateTableInput): Promise<{ table: Table }> {
  return atomically(context, async (tx) => {
    const record = await loadTable(tx, botId, ref, true)
    checkTableUpdate(record, input)
    const keyColumn = normalizeKeyColumn(input.keyColumn)
    if (input.name !== undefined && input.name !== record.name) {
      await checkNameFree(tx, botId, input.name)
      record.name = input.name
    }
    if (input.schema !== undefined) await applySchemaChange(tx, record, input.schema)
    // A key column the schema change removed goes away with it.
    const keyStillThere = record.keyColumn !== null && schemaColumn(record.schema, record.keyColumn) !== undefined
    if (keyColumn !== undefined || (record.keyColumn !== null && !keyStillThere)) {
      await applyKeyColumn(tx, record, keyColumn === undefined ? (keyStillThere ? record.keyColumn : null) : keyColumn)
    }
    if (input.factor !== undefined) record.factor = input.factor
    if (input.tags !== undefined) record.tags = input.tags
    if (input.isComputeEnabled !== undefined) record.isComputeEnabled = input.isComputeEnabled
    if (input.frozen !== undefined) record.frozen = input.frozen
    record.updatedAt = tx.timestamp()
    try {
      await saveRecord(tx, record)
    } catch (error) {
      // A concurrent rename took the name after the check.
      if (sqlState(error) === UNIQUE_VIOLATION && input.name !== undefined) throw tableNameTaken(input.name)
      throw error
    }
    return { table: tableToWire(record) }
  })
}
