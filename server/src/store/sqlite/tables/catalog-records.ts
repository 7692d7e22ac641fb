import { isTableId } from '../../tables/ids.js'
import type { TableRecord } from '../../tables/types.js'
import { tableRecordFromCatalog, type StoredCatalogRow } from '../../tables/catalog-row.js'
import { replaceTags } from '../tag-sql.js'
import type { TablesContext } from './context.js'
import { buildTableRuntime, type TableRuntime } from './runtime.js'

/** A row of `tables_catalog`. */
export type CatalogRow = StoredCatalogRow<number>

/**
 * The record of a catalog row (JSON columns parsed, 0/1 as booleans).
 *
 * @example
 * ```ts
 * const record = toRecord(db.prepare('SELECT * FROM tables_catalog WHERE id = ?').get(id) as CatalogRow)
 * ```
 */
export function toRecord(row: CatalogRow): TableRecord {
  return tableRecordFromCatalog(row, (flag) => flag === 1)
}

/** A catalog record as the named parameters of its row (JSON columns serialized, booleans as 0/1). */
function catalogValues(record: TableRecord): Record<string, string | number | null> {
  return {
    id: record.id,
    botId: record.botId,
    name: record.name,
    physical: record.physical,
    schemaJson: JSON.stringify(record.schema),
    physicalJson: JSON.stringify(record.physicalMap),
    nextColumn: record.nextColumn,
    factor: record.factor,
    frozen: record.frozen ? 1 : 0,
    keyColumn: record.keyColumn,
    tagsJson: JSON.stringify(record.tags),
    isComputeEnabled: record.isComputeEnabled ? 1 : 0,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }
}

export { physicalTableName } from '../../tables/new-table-record.js'

/**
 * The runtime (SQLite names and compiled columns) of a catalog record.
 *
 * @example
 * ```ts
 * const rt = runtimeOf(record)
 * ```
 */
export function runtimeOf(record: TableRecord): TableRuntime {
  return buildTableRuntime(record.physical, record.schema, record.physicalMap)
}

/**
 * A bot's table by id (`table_<ULID>`) or name, or `undefined`.
 *
 * @example
 * ```ts
 * const record = findRecord(context, 'bot_1', 'ordersTable')
 * ```
 */
export function findRecord(context: TablesContext, botId: string, ref: string): TableRecord | undefined {
  const byId = isTableId(ref) ? (context.prepare('SELECT * FROM tables_catalog WHERE bot_id = ? AND id = ?').get(botId, ref) as CatalogRow | undefined) : undefined
  const row = byId ?? (context.prepare('SELECT * FROM tables_catalog WHERE bot_id = ? AND name = ?').get(botId, ref) as CatalogRow | undefined)
  return row && toRecord(row)
}

/**
 * Tells whether a bot has a table of that name.
 *
 * @example
 * ```ts
 * if (isNameTaken(context, 'bot_1', 'ordersTable')) throw tableNameTaken('ordersTable')
 * ```
 */
export function isNameTaken(context: TablesContext, botId: string, name: string): boolean {
  return context.prepare('SELECT 1 FROM tables_catalog WHERE bot_id = ? AND name = ?').get(botId, name) !== undefined
}

/**
 * Inserts a new catalog row.
 *
 * @example
 * ```ts
 * insertRecord(context, record)
 * ```
 */
export function insertRecord(context: TablesContext, record: TableRecord): void {
  context
    .prepare(
      `INSERT INTO tables_catalog (id, bot_id, name, physical, schema_json, physical_json, next_column, factor, frozen, key_column,
       tags_json, is_compute_enabled, created_at, updated_at) VALUES (@id, @botId, @name, @physical, @schemaJson, @physicalJson,
       @nextColumn, @factor, @frozen, @keyColumn, @tagsJson, @isComputeEnabled, @createdAt, @updatedAt)`,
    )
    .run(catalogValues(record))
  replaceTags(context.db, 'table_tags', record.id, record.botId, record.tags)
}

/**
 * Writes a changed record back (everything but id, bot, physical table and creation time).
 *
 * @example
 * ```ts
 * saveRecord(context, { ...record, factor: 2, updatedAt: context.timestamp() })
 * ```
 */
export function saveRecord(context: TablesContext, record: TableRecord): void {
  context
    .prepare(
      `UPDATE tables_catalog SET name = @name, schema_json = @schemaJson, physical_json = @physicalJson, next_column = @nextColumn,
       factor = @factor, frozen = @frozen, key_column = @keyColumn, tags_json = @tagsJson, is_compute_enabled = @isComputeEnabled,
       updated_at = @updatedAt WHERE id = @id`,
    )
    .run(catalogValues(record))
  replaceTags(context.db, 'table_tags', record.id, record.botId, record.tags)
}
