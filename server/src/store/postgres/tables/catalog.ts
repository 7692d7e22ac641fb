import type { Table } from 'botshelf/api'
import type { PagePosition } from '../../page.js'
import { TablesStoreError } from '../../tables/errors.js'
import {
  checkTableName,
  copyNameCandidates,
  noFreeCopyName,
  renamedColumnRecord,
  tableNameTaken,
  tableNotFound,
} from '../../tables/table-rules.js'
import { copiedTableRecord, newTableRecord } from '../../tables/new-table-record.js'
import { tableToWire } from '../../tables/table-wire.js'
import type { CreateTableInput, TableRecord, TableWithCounts } from '../../tables/types.js'
import { findCatalogRow, insertRecord, isNameTaken, reserveRowIds, saveRecord, toRecord, type CatalogRow } from './catalog-records.js'
import { atomically, query, quoteIdent, sqlState, UNIQUE_VIOLATION, type PgTablesContext } from './context.js'
import { createRowsTable, dropRowsTable } from './ddl.js'
import { SqlParams } from './params.js'
import { runtimeOf } from './runtime.js'

/**
 * A bot's table by id or name, or `ResourceNotFound`. `forUpdate` locks its catalog row until the transaction
 * ends (every write of the table takes it first).
 *
 * @example
 * ```ts
 * const record = await loadTable(context, 'bot_1', 'ordersTable')
 * ```
 */
export async function loadTable(context: PgTablesContext, botId: string, ref: string, forUpdate = false): Promise<TableRecord> {
  const row = await findCatalogRow(context, botId, ref, forUpdate)
  if (!row) throw tableNotFound(ref)
  return toRecord(row)
}

/**
 * Like `loadTable` with the lock, and the last row id handed out.
 *
 * @example
 * ```ts
 * const { record, lastRowId } = await lockTable(tx, 'bot_1', 'ordersTable')
 * ```
 */
export async function lockTable(context: PgTablesContext, botId: string, ref: string): Promise<{ record: TableRecord; lastRowId: number }> {
  const row = await findCatalogRow(context, botId, ref, true)
  if (!row) throw tableNotFound(ref)
  return { record: toRecord(row), lastRowId: row.last_row_id }
}

/**
 * Like `lockTable`, taking the next `count` row ids in the same statement: the last id handed out before them.
 *
 * @example
 * ```ts
 * const { record, lastRowId } = await reserveIds(tx, 'bot_1', 'ordersTable', rows.length) // ids lastRowId + 1 ...
 * ```
 */
export async function reserveIds(context: PgTablesContext, botId: string, ref: string, count: number): Promise<{ record: TableRecord; lastRowId: number }> {
  const taken = await reserveRowIds(context, botId, ref, count)
  if (!taken) throw tableNotFound(ref)
  return { record: toRecord(taken.row), lastRowId: taken.previousLastRowId }
}

/**
 * Refuses a name that is invalid or that the bot already uses.
 *
 * @example
 * ```ts
 * await checkNameFree(context, 'bot_1', 'ordersTable')
 * ```
 */
export async function checkNameFree(context: PgTablesContext, botId: string, name: string): Promise<void> {
  checkTableName(name)
  if (await isNameTaken(context, botId, name)) throw tableNameTaken(name)
}

/**
 * One keyset page of a bot's tables, oldest first (`created_at`, then id), with an equality tag filter (every
 * tag must match, over the tag side table). `next` is the position of the page's last table when more may follow.
 *
 * @example
 * ```ts
 * const first = await listTables(context, 'bot_1', { tags: { team: 'sales' }, pageSize: 100 })
 * ```
 */
export async function listTables(
  context: PgTablesContext,
  botId: string,
  request: { tags?: Record<string, string>; after?: PagePosition; pageSize: number },
): Promise<{ tables: Table[]; next?: PagePosition }> {
  const params = new SqlParams()
  const where = [`c.bot_id = ${params.add(botId, 'text')}`]
  if (request.after !== undefined) {
    const value = params.add(request.after.value, 'text')
    where.push(`(c.created_at > ${value} OR (c.created_at = ${value} AND c.id > ${params.add(request.after.id, 'text')}))`)
  }
  for (const [key, value] of Object.entries(request.tags ?? {})) {
    where.push(
      `EXISTS (SELECT 1 FROM table_tags g WHERE g.table_id = c.id AND g.bot_id = c.bot_id AND g.tag_key = ${params.add(key, 'text')} AND g.tag_value = ${params.add(value, 'text')})`,
    )
  }
  const rows = (await query(
    context,
    `SELECT c.* FROM tables_catalog c WHERE ${where.join(' AND ')} ORDER BY c.created_at, c.id LIMIT ${params.add(request.pageSize + 1, 'int')}`,
    params.values,
  )) as unknown as CatalogRow[]
  const tables = rows.slice(0, request.pageSize).map((r) => tableToWire(toRecord(r)))
  const last = rows.length > request.pageSize ? rows[request.pageSize - 1] : undefined
  return last ? { tables, next: { value: last.created_at, id: last.id } } : { tables }
}

/** Inserts a catalog record, a name taken meanwhile (by a concurrent transaction) refused as on a check. */
async function insertNamed(context: PgTablesContext, record: TableRecord, lastRowId: number): Promise<void> {
  try {
    await insertRecord(context, record, lastRowId)
  } catch (error) {
    if (sqlState(error) === UNIQUE_VIOLATION) throw tableNameTaken(record.name)
    throw error
  }
}

/**
 * Creates a table (catalog row and rows table) from any of the three schema forms. Call inside a transaction.
 *
 * @example
 * ```ts
 * const record = await createRecord(tx, 'bot_1', { name: 'ordersTable', schema: { total: 0 } })
 * ```
 */
export async function createRecord(context: PgTablesContext, botId: string, input: CreateTableInput): Promise<TableRecord> {
  await checkNameFree(context, botId, input.name)
  const record = newTableRecord(context, botId, input)
  await insertNamed(context, record, 0)
  await createRowsTable(context, runtimeOf(record), record.keyColumn)
  return record
}

/**
 * Creates a table from any of the three schema forms, all or nothing.
 *
 * @example
 * ```ts
 * await createTable(context, 'bot_1', { name: 'ordersTable', schema: { total: 0 } })
 * ```
 */
export async function createTable(context: PgTablesContext, botId: string, input: CreateTableInput): Promise<Table> {
  return atomically(context, async (tx) => tableToWire(await createRecord(tx, botId, input)))
}

/**
 * A table with its counts (`stale` and `indexing` are always 0: nothing is computed or indexed later).
 *
 * @example
 * ```ts
 * const { table, rows } = await withCounts(context, record)
 * ```
 */
export async function withCounts(context: PgTablesContext, record: TableRecord): Promise<TableWithCounts> {
  const [count] = await query(context, `SELECT count(*)::int AS n FROM ${quoteIdent(record.physical)}`)
  return { table: tableToWire(record), rows: count!['n'] as number, stale: 0, indexing: 0 }
}

/**
 * The table named (or with the id) `name`, or a new one built from `input`; an existing table is returned as is.
 * When a concurrent call creates it first, its table is returned.
 *
 * @example
 * ```ts
 * const { table, created } = await getOrCreateTable(context, 'bot_1', 'ordersTable', { schema: { total: 0 } })
 * ```
 */
export async function getOrCreateTable(context: PgTablesContext, botId: string, name: string, input: Omit<CreateTableInput, 'name'>): Promise<TableWithCounts & { created: boolean }> {
  const existing = async () => {
    const row = await findCatalogRow(context, botId, name)
    return row && { ...(await withCounts(context, toRecord(row))), created: false }
  }
  const found = await existing()
  if (found) return found
  try {
    const record = await atomically(context, (tx) => createRecord(tx, botId, { ...input, name }))
    return { table: tableToWire(record), created: true, rows: 0, stale: 0, indexing: 0 }
  } catch (error) {
    const raced = error instanceof TablesStoreError && error.code === 'TABLE_EXISTS' ? await existing() : undefined
    if (raced) return raced
    throw error
  }
}

/**
 * Deletes a table, its rows, indexes, search column and jobs.
 *
 * @example
 * ```ts
 * await deleteTable(context, 'bot_1', 'ordersTable')
 * ```
 */
export async function deleteTable(context: PgTablesContext, botId: string, ref: string): Promise<void> {
  await atomically(context, async (tx) => {
    const record = await loadTable(tx, botId, ref, true)
    await dropRowsTable(tx, record.physical)
    await query(tx, 'DELETE FROM tables_catalog WHERE id = $1::text', [record.id])
    await query(tx, 'DELETE FROM tables_jobs WHERE table_id = $1::text', [record.id])
  })
}

async function copyName(context: PgTablesContext, botId: string, source: string): Promise<string> {
  for (const candidate of copyNameCandidates(source)) if (!(await isNameTaken(context, botId, candidate))) return candidate
  throw noFreeCopyName()
}

/**
 * Copies a table: schema, key column, tags, and (unless `schemaOnly`) every row with its id and timestamps. The
 * copy is never frozen; its next row id follows its largest copied id (as SQLite's AUTOINCREMENT does).
 *
 * @example
 * ```ts
 * const { table, rows } = await duplicateTable(context, 'bot_1', 'ordersTable', { tableName: 'ordersBackupTable' })
 * ```
 */
export async function duplicateTable(
  context: PgTablesContext,
  botId: string,
  ref: string,
  options: { tableName?: string; schemaOnly?: boolean; factor?: number } = {},
): Promise<{ table: Table; rows: number }> {
  return atomically(context, async (tx) => {
    // Locked as a write of the source would: its schema cannot change under the copy.
    const source = await loadTable(tx, botId, ref, true)
    const name = options.tableName ?? (await copyName(tx, botId, source.name))
    await checkNameFree(tx, botId, name)
    const record = copiedTableRecord(tx, source, { name, factor: options.factor, schemaOnly: options.schemaOnly })
    await insertNamed(tx, record, 0)
    const rt = runtimeOf(record)
    await createRowsTable(tx, rt, record.keyColumn)
    let rows = 0
    if (!options.schemaOnly) {
      const cols = ['id', 'created_at', 'updated_at', ...rt.columns.map((c) => quoteIdent(c.physical))].join(', ')
      const [copied] = await query(
        tx,
        `WITH c AS (INSERT INTO ${quoteIdent(record.physical)} (${cols}) SELECT ${cols} FROM ${quoteIdent(source.physical)} RETURNING id)
         SELECT count(*)::int AS n, coalesce(max(id), 0) AS last FROM c`,
      )
      rows = copied!['n'] as number
      await query(tx, 'UPDATE tables_catalog SET last_row_id = $2::int WHERE id = $1::text', [record.id, copied!['last']])
    }
    return { table: tableToWire(record), rows }
  })
}

/**
 * Renames a column; its data, index and search entries follow (the PostgreSQL column does not change).
 *
 * @example
 * ```ts
 * await renameColumn(context, 'bot_1', 'ordersTable', 'cust', 'customer')
 * ```
 */
export async function renameColumn(context: PgTablesContext, botId: string, ref: string, name: string, newName: string): Promise<Table> {
  return atomically(context, async (tx) => {
    const record = await loadTable(tx, botId, ref, true)
    const renamed = renamedColumnRecord(record, name, newName)
    if (!renamed) return tableToWire(record)
    const saved = { ...renamed, updatedAt: tx.timestamp() }
    await saveRecord(tx, saved)
    return tableToWire(saved)
  })
}
