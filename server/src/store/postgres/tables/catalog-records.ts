import { tablesLimits } from 'botshelf/api'
import { isTableId } from '../../tables/ids.js'
import type { TableRecord } from '../../tables/types.js'
import { tableRecordFromCatalog, type StoredCatalogRow } from '../../tables/catalog-row.js'
import { query, type PgTablesContext } from './context.js'

/** A row of `tables_catalog`. */
export interface CatalogRow extends StoredCatalogRow<boolean> {
  last_row_id: number
  /** Moves on every change of the row but its last row id (bigint, so it arrives as text). */
  version: string
}

/**
 * The record of a catalog row (JSON columns parsed).
 *
 * @example
 * ```ts
 * const record = toRecord(row as CatalogRow)
 * ```
 */
export function toRecord(row: CatalogRow): TableRecord {
  return tableRecordFromCatalog(row, (flag) => flag)
}

export { physicalTableName } from '../../tables/new-table-record.js'

/**
 * A bot's catalog row by id (`table_<ULID>`) or name, or `undefined`. `forUpdate` locks it until the transaction
 * ends: every write of a table's rows or schema takes this lock first, so writes to one table run one after the
 * other, as on SQLite, and checks made inside a write (key values, row ids) stay true until it commits.
 *
 * @example
 * ```ts
 * const row = await findCatalogRow(tx, 'bot_1', 'ordersTable', true)
 * ```
 */
export async function findCatalogRow(context: PgTablesContext, botId: string, ref: string, forUpdate = false): Promise<CatalogRow | undefined> {
  const lock = forUpdate ? ' FOR UPDATE' : ''
  if (isTableId(ref)) {
    const [byId] = await query(context, `SELECT * FROM tables_catalog WHERE bot_id = $1::text AND id = $2::text${lock}`, [botId, ref], { prepared: true })
    if (byId) return byId as unknown as CatalogRow
  }
  const [byName] = await query(context, `SELECT * FROM tables_catalog WHERE bot_id = $1::text AND name = $2::text${lock}`, [botId, ref], { prepared: true })
  return byName as unknown as CatalogRow | undefined
}

/**
 * Locks a table's catalog row and takes the next `count` row ids in one statement (one round trip instead of a
 * locking read and a later counter update): returns the row as it now is and the last id handed out before. The
 * counter stops at the largest row id; the caller refuses the rows that would pass it, and its transaction's
 * rollback gives the ids back.
 *
 * @example
 * ```ts
 * const taken = await reserveRowIds(tx, 'bot_1', 'ordersTable', 100) // { row, previousLastRowId: 41 }
 * ```
 */
export async function reserveRowIds(context: PgTablesContext, botId: string, ref: string, count: number): Promise<{ row: CatalogRow; previousLastRowId: number } | undefined> {
  const take = async (column: 'id' | 'name') => {
    const [row] = await query(
      context,
      `UPDATE tables_catalog c SET last_row_id = least(o.previous::bigint + $3::int, ${tablesLimits.maxRowId})::int
       FROM (SELECT id, last_row_id AS previous FROM tables_catalog WHERE bot_id = $1::text AND ${column} = $2::text FOR UPDATE) o
       WHERE c.id = o.id RETURNING c.*, o.previous AS previous_last_row_id`,
      [botId, ref, count],
      { prepared: true },
    )
    return row ? { row: row as unknown as CatalogRow, previousLastRowId: row['previous_last_row_id'] as number } : undefined
  }
  return (isTableId(ref) ? await take('id') : undefined) ?? (await take('name'))
}

/**
 * Tells whether a bot has a table of that name.
 *
 * @example
 * ```ts
 * if (await isNameTaken(context, 'bot_1', 'ordersTable')) throw tableNameTaken('ordersTable')
 * ```
 */
export async function isNameTaken(context: PgTablesContext, botId: string, name: string): Promise<boolean> {
  return (await query(context, 'SELECT 1 FROM tables_catalog WHERE bot_id = $1::text AND name = $2::text', [botId, name])).length > 0
}

/** Replaces a table's rows of the tag side table, which mirrors `tags_json` so tag filters use an index. */
async function replaceTags(context: PgTablesContext, record: TableRecord): Promise<void> {
  await query(context, 'DELETE FROM table_tags WHERE table_id = $1::text', [record.id])
  const entries = Object.entries(record.tags)
  if (entries.length === 0) return
  await query(
    context,
    'INSERT INTO table_tags (table_id, bot_id, tag_key, tag_value) SELECT $1::text, $2::text, k, v FROM unnest($3::text[], $4::text[]) AS x(k, v)',
    [record.id, record.botId, entries.map(([k]) => k), entries.map(([, v]) => v)],
  )
}

/**
 * Inserts a new catalog row (and its tags), with `lastRowId` as the last row id handed out (0 for a new table).
 *
 * @example
 * ```ts
 * await insertRecord(tx, record, 0)
 * ```
 */
export async function insertRecord(context: PgTablesContext, record: TableRecord, lastRowId: number): Promise<void> {
  await query(
    context,
    `INSERT INTO tables_catalog (id, bot_id, name, physical, schema_json, physical_json, next_column, factor, frozen, key_column,
     tags_json, is_compute_enabled, last_row_id, created_at, updated_at) VALUES ($1::text, $2::text, $3::text, $4::text, $5::text,
     $6::text, $7::int, $8::int, $9::boolean, $10::text, $11::text, $12::boolean, $13::int, $14::text, $15::text)`,
    [
      record.id,
      record.botId,
      record.name,
      record.physical,
      JSON.stringify(record.schema),
      JSON.stringify(record.physicalMap),
      record.nextColumn,
      record.factor,
      record.frozen,
      record.keyColumn,
      JSON.stringify(record.tags),
      record.isComputeEnabled,
      lastRowId,
      record.createdAt,
      record.updatedAt,
    ],
  )
  await replaceTags(context, record)
}

/**
 * Writes a changed record back (everything but id, bot, physical table, creation time and last row id).
 *
 * @example
 * ```ts
 * await saveRecord(tx, { ...record, factor: 2, updatedAt: tx.timestamp() })
 * ```
 */
export async function saveRecord(context: PgTablesContext, record: TableRecord): Promise<void> {
  await query(
    context,
    `UPDATE tables_catalog SET name = $2::text, schema_json = $3::text, physical_json = $4::text, next_column = $5::int, factor = $6::int,
     frozen = $7::boolean, key_column = $8::text, tags_json = $9::text, is_compute_enabled = $10::boolean, updated_at = $11::text WHERE id = $1::text`,
    [
      record.id,
      record.name,
      JSON.stringify(record.schema),
      JSON.stringify(record.physicalMap),
      record.nextColumn,
      record.factor,
      record.frozen,
      record.keyColumn,
      JSON.stringify(record.tags),
      record.isComputeEnabled,
      record.updatedAt,
    ],
  )
  await replaceTags(context, record)
}
