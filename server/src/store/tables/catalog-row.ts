import type { TableJsonSchema } from 'botshelf/api'
import type { TableRecord } from './types.js'

/**
 * The columns of a `tables_catalog` row that both engines store alike. `Flag` is how the engine stores a boolean:
 * SQLite's 0/1, PostgreSQL's `boolean`.
 */
export interface StoredCatalogRow<Flag> {
  id: string
  bot_id: string
  name: string
  physical: string
  schema_json: string
  physical_json: string
  next_column: number
  factor: number
  frozen: Flag
  key_column: string | null
  tags_json: string
  is_compute_enabled: Flag
  created_at: string
  updated_at: string
}

/**
 * The table record of a catalog row: JSON columns parsed, the engine's flags read as booleans by `isSet`.
 *
 * @example
 * ```ts
 * const record = tableRecordFromCatalog(row, (flag) => flag === 1) // SQLite
 * ```
 */
export function tableRecordFromCatalog<Flag>(row: StoredCatalogRow<Flag>, isSet: (flag: Flag) => boolean): TableRecord {
  return {
    id: row.id,
    botId: row.bot_id,
    name: row.name,
    physical: row.physical,
    schema: JSON.parse(row.schema_json) as TableJsonSchema,
    physicalMap: JSON.parse(row.physical_json) as Record<string, string>,
    nextColumn: row.next_column,
    factor: row.factor,
    frozen: isSet(row.frozen),
    keyColumn: row.key_column,
    tags: JSON.parse(row.tags_json) as Record<string, string>,
    isComputeEnabled: isSet(row.is_compute_enabled),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}
