import type { Row, Table, TableJob } from 'botshelf/api'
import type { PagePosition } from '../page.js'
import type { ClaimStaleRowsInput, RowVectorCounts, SetRowVectorsInput, StaleRowsClaim } from './row-vectors/types.js'
import type { RowSnapshot, TableSnapshot } from './table-snapshot.js'
import type { PublishedRows } from './import-staging.js'
import type { CreateTableInput, FindQuery, FindResult, RowsWriteResult, TableRecord, TableWithCounts, UpdateTableInput } from './types.js'

/** A change of a table job: its state, progress, output, failure reason and resume point. */
export interface TableJobChange {
  status?: TableJob['status']
  progress?: number
  outputFileId?: string
  error?: string
  /** How many input rows a background import has committed: a retried import resumes after them. */
  rowsCommitted?: number
}

/** A table job as the store keeps it: the wire job plus the failure reason and the resume point. */
export interface TableJobRecord extends Omit<TableJob, 'error'> {
  error: string | null
  rowsCommitted: number
}

/**
 * The tables port: the catalog, the rows of each user table, find/group/search, and the table jobs. A table is
 * named by id (`table_<ULID>`) or by name (`ref`). Every write is all or nothing; errors are `TablesStoreError`s
 * with the wire type and a stable code.
 *
 * @example
 * ```ts
 * await backend.tables.createTable(botId, { name: 'ordersTable', schema: { total: 0 } })
 * await backend.tables.createRows(botId, 'ordersTable', [{ total: 12 }])
 * const { rows } = await backend.tables.findRows(botId, 'ordersTable', { filter: { total: { $gt: 10 } } })
 * ```
 */
export interface TablesPort {
  /** A table by id or name, or throws `ResourceNotFound`. */
  loadTable(botId: string, ref: string): Promise<TableRecord>
  /** One keyset page of tables, oldest first, optionally filtered by tags (all must match). */
  listTables(botId: string, query: { tags?: Record<string, string>; after?: PagePosition; pageSize: number }): Promise<{ tables: Table[]; next?: PagePosition }>
  /** Creates a table from any of the three schema forms. */
  createTable(botId: string, input: CreateTableInput): Promise<Table>
  /** A table with its counts. */
  getTable(botId: string, ref: string): Promise<TableWithCounts>
  /**
   * The bytes a table's rows store: the UTF-8 length of the text form of every non-null user column value (ids and
   * times not counted), one aggregate query. Exact for strings on both engines; numbers, booleans and objects count
   * as each engine writes them as text. What the import byte quotas measure (decision 1463).
   */
  storedBytes(botId: string, ref: string): Promise<number>
  /** Returns the table, creating it first when missing. */
  getOrCreateTable(botId: string, name: string, input: Omit<CreateTableInput, 'name'>): Promise<TableWithCounts & { created: boolean }>
  /** Deletes a table, its rows and its jobs. */
  deleteTable(botId: string, ref: string): Promise<void>
  /** Copies a table (schema and, unless `schemaOnly`, rows). */
  duplicateTable(botId: string, ref: string, options?: { tableName?: string; schemaOnly?: boolean; factor?: number }): Promise<{ table: Table; rows: number }>
  /** Renames a column. */
  renameColumn(botId: string, ref: string, name: string, newName: string): Promise<Table>
  /** Changes name, schema, key column, factor, tags. */
  updateTable(botId: string, ref: string, input: UpdateTableInput): Promise<{ table: Table }>
  /** One row by id, or throws `ResourceNotFound`. */
  getRow(botId: string, ref: string, id: number): Promise<Row>
  /** Inserts 1-1000 rows, all or nothing. */
  createRows(botId: string, ref: string, rows: ReadonlyArray<Record<string, unknown>>): Promise<RowsWriteResult>
  /**
   * Checks rows as `importRows` would and appends them, all or nothing, to the staging table of the import job
   * `tableJobId` (created on its first step), where no read sees them; rows `firstRowIndex`… of the file, so a step
   * must follow the rows staged so far (decision 1473). A key value stored or staged before is `KEY_CONFLICT`.
   * May answer before its commit is durable (decision 1459): the job's next durable write makes it so.
   */
  stageImportRows(botId: string, ref: string, tableJobId: string, rows: ReadonlyArray<Record<string, unknown>>, firstRowIndex: number): Promise<{ warnings: string[] }>
  /** How many rows the staging table of the import job `tableJobId` holds (0 when it has none). */
  stagedImportRows(tableJobId: string): Promise<number>
  /**
   * Publishes staged rows `from`… (at most `count`) into the table in file order and records the job's new
   * `rowsCommitted`, in one transaction; refused unless the job's `rowsCommitted` is `from`. May answer before its
   * commit is durable (decision 1459): the job's completion, a durable write, makes every step durable with it.
   */
  publishImportRows(botId: string, ref: string, tableJobId: string, from: number, count: number): Promise<PublishedRows>
  /** Drops the staging table of the import job `tableJobId`, if any. */
  dropImportStaging(tableJobId: string): Promise<void>
  /** Inserts any number of rows, all or nothing (`firstRowIndex` numbers them in errors); `ids` in input order. */
  importRows(botId: string, ref: string, rows: ReadonlyArray<Record<string, unknown>>, firstRowIndex?: number): Promise<{ inserted: number; ids: number[]; warnings: string[] }>
  /** Updates rows by id, all or nothing. */
  updateRows(botId: string, ref: string, rows: ReadonlyArray<Record<string, unknown> & { id: number }>): Promise<RowsWriteResult>
  /** Inserts or updates rows matched on `keyColumn` (default `id`). */
  upsertRows(botId: string, ref: string, rows: ReadonlyArray<Record<string, unknown>>, keyColumn?: string): Promise<{ inserted: Row[]; updated: Row[]; warnings: string[] }>
  /** Deletes rows by ids, by filter, or all of them. */
  deleteRows(botId: string, ref: string, input: { ids?: number[]; filter?: Record<string, unknown>; deleteAllRows?: boolean }): Promise<{ deletedRows: number }>
  /** Finds, groups or searches rows. */
  findRows(botId: string, ref: string, query: FindQuery): Promise<FindResult>
  /** The table's latest jobs, newest first. */
  listJobs(botId: string, ref: string): Promise<TableJob[]>
  /** Records a new job in `pending`. */
  createJob(botId: string, tableId: string, type: TableJob['type'], files?: { inputFileId?: string | null; outputFileId?: string | null }): Promise<TableJob>
  /** A job by id (with its failure reason and resume point), or `undefined`. */
  getJob(id: string): Promise<TableJobRecord | undefined>
  /** Moves a job along. */
  updateJob(id: string, change: TableJobChange): Promise<TableJob>
  /**
   * The `stale` and `indexing` counts of a table for one embedder (decision 0860); both 0 for a table without
   * searchable columns.
   */
  rowVectorCounts(botId: string, ref: string, embedderId: string): Promise<RowVectorCounts>
  /**
   * Claims up to `limit` stale rows for `leaseMs` (rows with no vector of the embedder and no unexpired claim),
   * oldest id first, with their searchable text. An empty `rows`: nothing left to embed.
   */
  claimStaleRows(botId: string, ref: string, input: ClaimStaleRowsInput): Promise<StaleRowsClaim>
  /**
   * Writes the vectors of claimed rows; a row written, deleted or claimed again since the claim is skipped (it stays
   * stale for a later job). Returns how many rows got their vector.
   */
  setRowVectors(botId: string, ref: string, input: SetRowVectorsInput): Promise<number>
  /** Every table (of every bot) with stale rows for the embedder and none claimed: what a sweep queues jobs for. */
  tablesWithStaleRows(embedderId: string): Promise<Array<{ botId: string; tableId: string }>>
  /**
   * Creates a table exactly as a dataset archive describes it (`botshelf import`): its id, name, schema, settings,
   * tags and times kept; checked as a new table would be. Throws `TABLE_EXISTS` when the name or id is taken.
   */
  restoreTable(botId: string, snapshot: TableSnapshot): Promise<Table>
  /**
   * Inserts rows with their own ids and times (`botshelf import`), all or nothing, validated as `importRows` does;
   * the table's next row id follows the largest one given. `firstRowIndex` numbers rows in errors.
   */
  restoreRows(botId: string, ref: string, rows: ReadonlyArray<RowSnapshot>, firstRowIndex?: number): Promise<{ inserted: number }>
}
