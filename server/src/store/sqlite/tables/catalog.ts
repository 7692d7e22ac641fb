import type { Table } from 'botshelf/api'
import type { PagePosition } from '../../page.js'
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
import { tagConditionsSql } from '../tag-sql.js'
import { findRecord, insertRecord, isNameTaken, runtimeOf, saveRecord, toRecord, type CatalogRow } from './catalog-records.js'
import { quoteIdent } from './columns.js'
import type { TablesContext } from './context.js'
import { createRowsTable, dropRowsTable } from './ddl.js'

/**
 * A bot's table by id or name, or `ResourceNotFound`.
 *
 * @example
 * ```ts
 * const record = loadTable(context, 'bot_1', 'ordersTable')
 * ```
 */
export function loadTable(context: TablesContext, botId: string, ref: string): TableRecord {
  const record = findRecord(context, botId, ref)
  if (!record) throw tableNotFound(ref)
  return record
}

/**
 * Refuses a name that is invalid or that the bot already uses.
 *
 * @example
 * ```ts
 * checkNameFree(context, 'bot_1', 'ordersTable')
 * ```
 */
export function checkNameFree(context: TablesContext, botId: string, name: string): void {
  checkTableName(name)
  if (isNameTaken(context, botId, name)) throw tableNameTaken(name)
}

/**
 * One keyset page of a bot's tables, oldest first (`created_at`, then id), with an equality tag filter (every
 * tag must match). `next` is the position of the page's last table when more may follow; the next page starts
 * strictly after it, so tables that exist throughout a walk are neither skipped nor repeated.
 *
 * @example
 * ```ts
 * const first = listTables(context, 'bot_1', { tags: { team: 'sales' }, pageSize: 100 })
 * const second = first.next && listTables(context, 'bot_1', { tags: { team: 'sales' }, after: first.next, pageSize: 100 })
 * ```
 */
export function listTables(
  context: TablesContext,
  botId: string,
  query: { tags?: Record<string, string>; after?: PagePosition; pageSize: number },
): { tables: Table[]; next?: PagePosition } {
  const where = ['c.bot_id = ?']
  const params: unknown[] = [botId]
  if (query.after !== undefined) {
    where.push('(c.created_at > ? OR (c.created_at = ? AND c.id > ?))')
    params.push(query.after.value, query.after.value, query.after.id)
  }
  // listTables filters on equal tag values; the one tag model translates them over the table_tags side table.
  const tags = tagConditionsSql(
    Object.entries(query.tags ?? {}).map(([key, value]) => ({ key, anyOf: [value] })),
    'c',
    'table_tags',
  )
  where.push(tags.sql)
  params.push(...tags.params)
  const rows = context.db
    .prepare(`SELECT c.* FROM tables_catalog c WHERE ${where.join(' AND ')} ORDER BY c.created_at, c.id LIMIT ?`)
    .all(...params, query.pageSize + 1) as CatalogRow[]
  const tables = rows.slice(0, query.pageSize).map((r) => tableToWire(toRecord(r)))
  const last = rows.length > query.pageSize ? rows[query.pageSize - 1] : undefined
  return last ? { tables, next: { value: last.created_at, id: last.id } } : { tables }
}

/**
 * Creates a table (catalog row and rows table) from any of the three schema forms (docs/decisions/0402-schema-input-forms.md).
 * Call inside a transaction.
 *
 * @example
 * ```ts
 * const record = createRecord(context, 'bot_1', { name: 'ordersTable', schema: { total: 0 } })
 * ```
 */
export function createRecord(context: TablesContext, botId: string, input: CreateTableInput): TableRecord {
  checkNameFree(context, botId, input.name)
  const record = newTableRecord(context, botId, input)
  insertRecord(context, record)
  createRowsTable(context.db, runtimeOf(record), record.keyColumn)
  return record
}

/**
 * Creates a table from any of the three schema forms, in one transaction.
 *
 * @example
 * ```ts
 * createTable(context, 'bot_1', { name: 'ordersTable', schema: { total: 0, customer: '' }, keyColumn: 'customer' })
 * ```
 */
export function createTable(context: TablesContext, botId: string, input: CreateTableInput): Table {
  return context.db.transaction(() => tableToWire(createRecord(context, botId, input)))()
}

/**
 * A table with its counts (`stale` and `indexing` are always 0: nothing is computed or indexed later).
 *
 * @example
 * ```ts
 * const { table, rows } = withCounts(context, record)
 * ```
 */
export function withCounts(context: TablesContext, record: TableRecord): TableWithCounts {
  const rows = context.prepare(`SELECT COUNT(*) FROM ${quoteIdent(record.physical)}`).pluck().get() as number
  return { table: tableToWire(record), rows, stale: 0, indexing: 0 }
}

/**
 * The table named (or with the id) `name`, or a new one built from `input`; an existing table is returned as is.
 *
 * @example
 * ```ts
 * const { table, created } = getOrCreateTable(context, 'bot_1', 'ordersTable', { schema: { total: 0 } })
 * ```
 */
export function getOrCreateTable(context: TablesContext, botId: string, name: string, input: Omit<CreateTableInput, 'name'>): TableWithCounts & { created: boolean } {
  return context.db.transaction(() => {
    const existing = context.prepare('SELECT * FROM tables_catalog WHERE bot_id = ? AND (name = ? OR id = ?)').get(botId, name, name) as CatalogRow | undefined
    if (existing) return { ...withCounts(context, toRecord(existing)), created: false }
    const record = createRecord(context, botId, { ...input, name })
    return { table: tableToWire(record), created: true, rows: 0, stale: 0, indexing: 0 }
  })()
}

/**
 * Deletes a table, its rows, indexes, search table and jobs.
 *
 * @example
 * ```ts
 * deleteTable(context, 'bot_1', 'ordersTable')
 * ```
 */
export function deleteTable(context: TablesContext, botId: string, ref: string): void {
  context.db.transaction(() => {
    const record = loadTable(context, botId, ref)
    dropRowsTable(context.db, record.physical)
    context.prepare('DELETE FROM tables_catalog WHERE id = ?').run(record.id)
    context.prepare('DELETE FROM tables_jobs WHERE table_id = ?').run(record.id)
  })()
}

function copyName(context: TablesContext, botId: string, source: string): string {
  const free = copyNameCandidates(source).find((candidate) => !isNameTaken(context, botId, candidate))
  if (free === undefined) throw noFreeCopyName()
  return free
}

/**
 * Copies a table: schema, key column, tags, and (unless `schemaOnly`) every row with its id and timestamps.
 * The copy is never frozen. Default name: `<base>Copy<N>Table`.
 *
 * @example
 * ```ts
 * const { table, rows } = duplicateTable(context, 'bot_1', 'ordersTable', { tableName: 'ordersBackupTable' })
 * ```
 */
export function duplicateTable(
  context: TablesContext,
  botId: string,
  ref: string,
  options: { tableName?: string; schemaOnly?: boolean; factor?: number } = {},
): { table: Table; rows: number } {
  return context.db.transaction(() => {
    const source = loadTable(context, botId, ref)
    const name = options.tableName ?? copyName(context, botId, source.name)
    checkNameFree(context, botId, name)
    const record = copiedTableRecord(context, source, { name, factor: options.factor, schemaOnly: options.schemaOnly })
    insertRecord(context, record)
    const rt = runtimeOf(record)
    createRowsTable(context.db, rt, record.keyColumn)
    let rows = 0
    if (!options.schemaOnly) {
      const cols = ['id', 'created_at', 'updated_at', ...rt.columns.map((c) => quoteIdent(c.physical))].join(', ')
      rows = context.db.prepare(`INSERT INTO ${quoteIdent(record.physical)} (${cols}) SELECT ${cols} FROM ${quoteIdent(source.physical)}`).run().changes
    }
    return { table: tableToWire(record), rows }
  })()
}

/**
 * Renames a column; its data, index and search entries follow (the SQLite column does not change).
 *
 * @example
 * ```ts
 * renameColumn(context, 'bot_1', 'ordersTable', 'cust', 'customer')
 * ```
 */
export function renameColumn(context: TablesContext, botId: string, ref: string, name: string, newName: string): Table {
  return context.db.transaction(() => {
    const record = loadTable(context, botId, ref)
    const renamed = renamedColumnRecord(record, name, newName)
    if (!renamed) return tableToWire(record)
    const saved = { ...renamed, updatedAt: context.timestamp() }
    saveRecord(context, saved)
    return tableToWire(saved)
  })()
}
