import type { Table } from 'botshelf/api'
import { checkKeyColumn, checkTableUpdate, keyColumnNotUnique, normalizeKeyColumn } from '../../tables/table-rules.js'
import { schemaColumn } from '../../tables/table-schema.js'
import { tableToWire } from '../../tables/table-wire.js'
import type { TableRecord, UpdateTableInput } from '../../tables/types.js'
import { checkNameFree, loadTable } from './catalog.js'
import { runtimeOf, saveRecord } from './catalog-records.js'
import { isUniqueViolation, type TablesContext } from './context.js'
import { createKeyIndex, dropKeyIndex } from './ddl.js'
import { applySchemaChange } from './schema-apply.js'

/** Moves the unique index to the new key column (or drops it); duplicates are `KEY_CONFLICT`. */
function applyKeyColumn(context: TablesContext, record: TableRecord, keyColumn: string | null): void {
  dropKeyIndex(context.db, record.physical)
  record.keyColumn = keyColumn
  if (keyColumn === null) return
  checkKeyColumn(record.schema, keyColumn)
  try {
    createKeyIndex(context.db, runtimeOf(record), keyColumn)
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    throw keyColumnNotUnique(keyColumn)
  }
}

/**
 * Updates a table (docs/decisions/0404-update-table-rules.md): name, tags, `isComputeEnabled`, `frozen`, `factor`
 * (only up), `keyColumn` (`null`/`""` removes it), and `schema` merged column by column. All or nothing.
 *
 * @example
 * ```ts
 * updateTable(context, 'bot_1', 'ordersTable', { schema: { note: { type: 'string' } }, factor: 2 })
 * ```
 */
export function updateTable(context: TablesContext, botId: string, ref: string, input: UpdateTableInput): { table: Table } {
  return context.db.transaction(() => {
    const record = loadTable(context, botId, ref)
    checkTableUpdate(record, input)
    const keyColumn = normalizeKeyColumn(input.keyColumn)
    if (input.name !== undefined && input.name !== record.name) {
      checkNameFree(context, botId, input.name)
      record.name = input.name
    }
    if (input.schema !== undefined) applySchemaChange(context, record, input.schema)
    // A key column the schema change removed goes away with it.
    const keyStillThere = record.keyColumn !== null && schemaColumn(record.schema, record.keyColumn) !== undefined
    if (keyColumn !== undefined || (record.keyColumn !== null && !keyStillThere)) {
      applyKeyColumn(context, record, keyColumn === undefined ? (keyStillThere ? record.keyColumn : null) : keyColumn)
    }
    if (input.factor !== undefined) record.factor = input.factor
    if (input.tags !== undefined) record.tags = input.tags
    if (input.isComputeEnabled !== undefined) record.isComputeEnabled = input.isComputeEnabled
    if (input.frozen !== undefined) record.frozen = input.frozen
    record.updatedAt = context.timestamp()
    saveRecord(context, record)
    return { table: tableToWire(record) }
  })()
}
