import type { Row, Table, TableJob } from 'botshelf/api'
import { storedBytes } from './stored-bytes.js'
import type { PagePosition } from '../../page.js'
import type { TableJobChange, TableJobRecord } from '../../tables/tables-port.js'
import type { RowSnapshot, TableSnapshot } from '../../tables/table-snapshot.js'
import type { CreateTableInput, FindQuery, FindResult, RowsWriteResult, TableRecord, TableWithCounts, UpdateTableInput } from '../../tables/types.js'
import * as catalog from './catalog.js'
import { openTablesContext, type TablesContext } from './context.js'
import { findRows } from './find.js'
import * as jobs from './jobs.js'
import type { Sqlite } from '../connect.js'
import * as rows from './rows.js'
import * as staging from './import-staging.js'
import type { PublishedRows } from '../../tables/import-staging.js'
import { restoreRows, restoreTable } from './restore.js'
import { updateTable } from './update.js'
import { upsertRows } from './upsert.js'
import * as vectors from './row-vectors.js'
import { runtimeOf } from './catalog-records.js'
import type { ClaimStaleRowsInput, RowVectorCounts, SetRowVectorsInput, StaleRowsClaim } from '../../tables/row-vectors/index.js'
import { systemClock, type Clock } from '../../clock.js'

/** Options of the tables store. */
export interface TablesStoreOptions {
  /**
   * Clock for timestamps (tests pass a fake one).
   *
   * @example
   * ```ts
   * new SqliteTablesStore(db, { now: () => new Date('2026-01-01T00:00:00Z') })
   * ```
   */
  now?: Clock
}

/**
 * The embedded Tables store: a catalog of tables and, per user table, a real SQLite table with typed columns,
 * indexes and an FTS5 search table (docs/decisions/0407-tables-storage.md). Filters, sorting, grouping and search
 * run as SQL. Every write runs in one transaction: it applies completely or not at all. Its methods are those of
 * `TablesPort`, synchronous; each delegates to the module of its concern (catalog, update, rows, upsert, find, jobs).
 *
 * @example
 * ```ts
 * const db = openDatabase(':memory:')
 * runMigrations(db, tablesMigrations)
 * const tables = new SqliteTablesStore(db)
 * const table = tables.createTable('bot_1', { name: 'ordersTable', schema: { total: 0 } })
 * tables.createRows('bot_1', 'ordersTable', [{ total: 12 }])
 * ```
 */
export class SqliteTablesStore {
  private readonly context: TablesContext

  constructor(db: Sqlite, options: TablesStoreOptions = {}) {
    this.context = openTablesContext(db, options.now ?? systemClock)
  }

  /**
   * A table by id (`table_<ULID>`) or name, or `ResourceNotFound`.
   *
   * @example
   * ```ts
   * const record = tables.loadTable('bot_1', 'ordersTable')
   * ```
   */
  loadTable(botId: string, ref: string): TableRecord {
    return catalog.loadTable(this.context, botId, ref)
  }

  /**
   * One keyset page of tables, oldest first, filtered by tags (all must match); pass `next` back as `after`.
   *
   * @example
   * ```ts
   * const { tables, next } = store.listTables('bot_1', { tags: { team: 'sales' }, pageSize: 100 })
   * ```
   */
  listTables(botId: string, query: { tags?: Record<string, string>; after?: PagePosition; pageSize: number }): { tables: Table[]; next?: PagePosition } {
    return catalog.listTables(this.context, botId, query)
  }

  /**
   * Creates a table from any of the three schema forms (docs/decisions/0402-schema-input-forms.md).
   *
   * @example
   * ```ts
   * store.createTable('bot_1', { name: 'ordersTable', schema: { total: 0, customer: '' }, keyColumn: 'customer' })
   * ```
   */
  createTable(botId: string, input: CreateTableInput): Table {
    return catalog.createTable(this.context, botId, input)
  }

  /**
   * A table with its row count (`stale` and `indexing` are always 0: nothing is computed or indexed later).
   *
   * @example
   * ```ts
   * const { table, rows } = store.getTable('bot_1', 'ordersTable')
   * ```
   */
  getTable(botId: string, ref: string): TableWithCounts {
    return catalog.withCounts(this.context, catalog.loadTable(this.context, botId, ref))
  }

  /**
   * The bytes the table's rows store (the text form of every non-null user column value), one aggregate query.
   *
   * @example
   * ```ts
   * store.storedBytes('bot_1', 'ordersTable') // 1834
   * ```
   */
  storedBytes(botId: string, ref: string): number {
    return storedBytes(this.context, botId, ref)
  }

  /**
   * The table named `name` as it is (its schema is not compared with `input.schema`), or a new one from `input`.
   *
   * @example
   * ```ts
   * const { table, created } = store.getOrCreateTable('bot_1', 'ordersTable', { schema: { total: 0 } })
   * ```
   */
  getOrCreateTable(botId: string, name: string, input: Omit<CreateTableInput, 'name'>): TableWithCounts & { created: boolean } {
    return catalog.getOrCreateTable(this.context, botId, name, input)
  }

  /**
   * Deletes a table, its rows, indexes, search table and jobs.
   *
   * @example
   * ```ts
   * store.deleteTable('bot_1', 'ordersTable')
   * ```
   */
  deleteTable(botId: string, ref: string): void {
    catalog.deleteTable(this.context, botId, ref)
  }

  /**
   * Copies schema, key column, tags and (unless `schemaOnly`) rows; never frozen; default name `<base>Copy<N>Table`.
   *
   * @example
   * ```ts
   * const { table, rows } = store.duplicateTable('bot_1', 'ordersTable', { tableName: 'ordersBackupTable' })
   * ```
   */
  duplicateTable(botId: string, ref: string, options: { tableName?: string; schemaOnly?: boolean; factor?: number } = {}): { table: Table; rows: number } {
    return catalog.duplicateTable(this.context, botId, ref, options)
  }

  /**
   * Renames a column; its data, index and search entries follow (the SQLite column does not change).
   *
   * @example
   * ```ts
   * store.renameColumn('bot_1', 'ordersTable', 'cust', 'customer')
   * ```
   */
  renameColumn(botId: string, ref: string, name: string, newName: string): Table {
    return catalog.renameColumn(this.context, botId, ref, name, newName)
  }

  /**
   * Updates name, tags, `isComputeEnabled`, `frozen`, `factor` (only up), `keyColumn` (`null`/`""` removes it) and
   * `schema`, merged column by column (docs/decisions/0404-update-table-rules.md).
   *
   * @example
   * ```ts
   * store.updateTable('bot_1', 'ordersTable', { schema: { note: { type: 'string' } }, factor: 2 })
   * ```
   */
  updateTable(botId: string, ref: string, input: UpdateTableInput): { table: Table } {
    return updateTable(this.context, botId, ref, input)
  }

  /**
   * One row by id, or `ResourceNotFound`.
   *
   * @example
   * ```ts
   * const row = store.getRow('bot_1', 'ordersTable', 1)
   * ```
   */
  getRow(botId: string, ref: string, id: number): Row {
    return rows.getRow(this.context, botId, ref, id)
  }

  /**
   * Inserts 1 to 1000 rows, all or nothing (docs/decisions/0403-all-or-nothing-writes.md); unknown keys are warnings.
   *
   * @example
   * ```ts
   * const { rows } = store.createRows('bot_1', 'ordersTable', [{ total: 12 }, { total: 30 }])
   * ```
   */
  createRows(botId: string, ref: string, input: ReadonlyArray<Record<string, unknown>>): RowsWriteResult {
    return rows.createRows(this.context, botId, ref, input)
  }

  /**
   * Checks rows as `importRows` would and appends them to the staging table of import job `tableJobId`, unseen by
   * reads until published (decision 1473); rows `firstRowIndex`… of the file.
   *
   * @example
   * ```ts
   * store.stageImportRows('bot_1', 'ordersTable', job.id, firstThousand, 0) // { warnings: [] }
   * ```
   */
  stageImportRows(botId: string, ref: string, tableJobId: string, input: ReadonlyArray<Record<string, unknown>>, firstRowIndex: number): { warnings: string[] } {
    return staging.stageImportRows(this.context, botId, ref, tableJobId, input, firstRowIndex)
  }

  /**
   * How many rows the staging table of import job `tableJobId` holds (0 when it has none).
   *
   * @example
   * ```ts
   * store.stagedImportRows(job.id) // 120000
   * ```
   */
  stagedImportRows(tableJobId: string): number {
    return staging.stagedImportRows(this.context, tableJobId)
  }

  /**
   * Publishes staged rows `from`… (at most `count`) in file order and records the job's new `rowsCommitted`, in one
   * transaction; refused unless the job's `rowsCommitted` is `from`.
   *
   * @example
   * ```ts
   * store.publishImportRows('bot_1', 'ordersTable', job.id, 0, 2000) // { published: 2000, ids: [1, 2, …] }
   * ```
   */
  publishImportRows(botId: string, ref: string, tableJobId: string, from: number, count: number): PublishedRows {
    return staging.publishImportRows(this.context, botId, ref, tableJobId, from, count)
  }

  /**
   * Drops the staging table of import job `tableJobId`, if any.
   *
   * @example
   * ```ts
   * store.dropImportStaging(job.id)
   * ```
   */
  dropImportStaging(tableJobId: string): void {
    staging.dropImportStaging(this.context, tableJobId)
  }

  /**
   * Inserts any number of rows, all or nothing, validated as `createRows`; errors number rows from `firstRowIndex`.
   *
   * @example
   * ```ts
   * store.importRows('bot_1', 'ordersTable', rowsFromCsv) // { inserted: 2, warnings: [] }
   * store.importRows('bot_1', 'ordersTable', nextThousand, 1000) // a problem in its first row is rows.1000
   * ```
   */
  importRows(botId: string, ref: string, input: ReadonlyArray<Record<string, unknown>>, firstRowIndex = 0): { inserted: number; ids: number[]; warnings: string[] } {
    return rows.importRows(this.context, botId, ref, input, firstRowIndex)
  }

  /**
   * Changes the named columns of 1 to 1000 rows by id (`null` clears), all or nothing; an unknown id is `ResourceNotFound`.
   *
   * @example
   * ```ts
   * store.updateRows('bot_1', 'ordersTable', [{ id: 1, total: 13 }])
   * ```
   */
  updateRows(botId: string, ref: string, input: ReadonlyArray<Record<string, unknown> & { id: number }>): RowsWriteResult {
    return rows.updateRows(this.context, botId, ref, input)
  }

  /**
   * Inserts or updates 1 to 1000 rows matched on `keyColumn` (default `id`), in request order, all or nothing.
   *
   * @example
   * ```ts
   * const { inserted, updated } = store.upsertRows('bot_1', 'usersTable', [{ email: 'a@b.c', name: 'Ada' }], 'email')
   * ```
   */
  upsertRows(botId: string, ref: string, input: ReadonlyArray<Record<string, unknown>>, keyColumn = 'id'): { inserted: Row[]; updated: Row[]; warnings: string[] } {
    return upsertRows(this.context, botId, ref, input, keyColumn)
  }

  /**
   * Deletes rows by `ids`, by `filter`, or all of them (exactly one of the three), synchronously.
   *
   * @example
   * ```ts
   * store.deleteRows('bot_1', 'ordersTable', { filter: { total: { $lt: 1 } } }) // { deletedRows: 3 }
   * ```
   */
  deleteRows(botId: string, ref: string, input: { ids?: number[]; filter?: Record<string, unknown>; deleteAllRows?: boolean }): { deletedRows: number } {
    return rows.deleteRows(this.context, botId, ref, input)
  }

  /**
   * Finds rows (filter, search, select, order, page) or groups, as SQL (docs/decisions/0405-filter-semantics.md).
   *
   * @example
   * ```ts
   * const { rows, hasMore } = store.findRows('bot_1', 'ordersTable', { filter: { total: { $gte: 10 } }, limit: 50 })
   * ```
   */
  findRows(botId: string, ref: string, query: FindQuery): FindResult {
    return findRows(this.context, botId, ref, query)
  }

  /**
   * The table's most recent jobs (at most 50), newest first.
   *
   * @example
   * ```ts
   * const jobs = store.listJobs('bot_1', 'ordersTable')
   * ```
   */
  listJobs(botId: string, ref: string): TableJob[] {
    return jobs.listJobs(this.context, botId, ref)
  }

  /**
   * Records a new job in `pending`.
   *
   * @example
   * ```ts
   * const job = store.createJob('bot_1', record.id, 'export', { inputFileId: null })
   * ```
   */
  createJob(botId: string, tableId: string, type: TableJob['type'], files: { inputFileId?: string | null; outputFileId?: string | null } = {}): TableJob {
    return jobs.createJob(this.context, botId, tableId, type, files)
  }

  /**
   * A job by id (any table), with its failure reason and resume point, or `undefined`.
   *
   * @example
   * ```ts
   * const job = store.getJob(jobId) // { ..., status: 'in_progress', error: null, rowsCommitted: 2000 }
   * ```
   */
  getJob(id: string): TableJobRecord | undefined {
    return jobs.getJob(this.context, id)
  }

  /**
   * Moves a job along; fields not given stay, except `error`, which a change without one clears.
   *
   * @example
   * ```ts
   * store.updateJob(job.id, { status: 'completed', progress: 1, outputFileId: file.id })
   * ```
   */
  updateJob(id: string, change: TableJobChange): TableJob {
    return jobs.updateJob(this.context, id, change)
  }

  /**
   * `stale` and `indexing` of a table for one embedder (decision 0860).
   *
   * @example
   * ```ts
   * store.rowVectorCounts('bot_1', 'faqTable', embedder.id) // { stale: 2, indexing: 0 }
   * ```
   */
  rowVectorCounts(botId: string, ref: string, embedderId: string): RowVectorCounts {
    return vectors.rowVectorCounts(this.context, runtimeOf(catalog.loadTable(this.context, botId, ref)), embedderId)
  }

  /**
   * Claims up to `limit` stale rows (no vector of the embedder, no unexpired claim) with their searchable text.
   *
   * @example
   * ```ts
   * const { token, rows } = store.claimStaleRows('bot_1', 'faqTable', { embedderId: embedder.id, limit: 64, leaseMs: 60_000 })
   * ```
   */
  claimStaleRows(botId: string, ref: string, input: ClaimStaleRowsInput): StaleRowsClaim {
    return vectors.claimStaleRows(this.context, runtimeOf(catalog.loadTable(this.context, botId, ref)), input)
  }

  /**
   * Writes the vectors of claimed rows still under the claim; returns how many were written.
   *
   * @example
   * ```ts
   * store.setRowVectors('bot_1', 'faqTable', { token, embedderId: embedder.id, vectors: [{ id: 1, vector }] }) // 1
   * ```
   */
  setRowVectors(botId: string, ref: string, input: SetRowVectorsInput): number {
    return vectors.setRowVectors(this.context, runtimeOf(catalog.loadTable(this.context, botId, ref)), input)
  }

  /**
   * Every table with rows left to embed for the embedder and no job holding any of them.
   *
   * @example
   * ```ts
   * store.tablesWithStaleRows(embedder.id) // [{ botId: 'bot_1', tableId: 'table_01…' }]
   * ```
   */
  tablesWithStaleRows(embedderId: string): Array<{ botId: string; tableId: string }> {
    return vectors.tablesWithStaleRows(this.context, embedderId)
  }

  /** Creates a table as an archive describes it, id and times kept (see `TablesPort.restoreTable`). */
  restoreTable(botId: string, snapshot: TableSnapshot): Table {
    return restoreTable(this.context, botId, snapshot)
  }

  /** Inserts rows with their own ids and times (see `TablesPort.restoreRows`). */
  restoreRows(botId: string, ref: string, input: ReadonlyArray<RowSnapshot>, firstRowIndex = 0): { inserted: number } {
    return restoreRows(this.context, botId, ref, input, firstRowIndex)
  }
}
