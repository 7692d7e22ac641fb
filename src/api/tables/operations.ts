import { z } from 'zod'
import { defineOperation } from '../operation.js'
import { ListMetaSchema } from '../pagination.js'
import { GroupSchema, RowFilterSchema } from './filter.js'
import { JobRefSchema, TableJobSchema } from './job.js'
import { tablesLimits } from './limits.js'
import { NewRowSchema, RowIdSchema, RowSchema, RowUpdateSchema, RowUpsertSchema } from './row.js'
import { SchemaInputSchema, TableNameSchema, TableSchema, TableSettingsShape, TableTagsSchema } from './table.js'

/** Path params of every per-table operation: `{table}` is the table's name or id. */
const TableParamsSchema = z.object({ table: z.string().min(1) })

/** Row counts `getTable` and `getOrCreateTable` add beside the table. */
const TableCountsShape = {
  /** Rows in the table. */
  rows: z.number().int(),
  /**
   * Rows waiting to be embedded for search: no vector of the configured embedder yet, or a searchable value written
   * since (decision 0860). 0 without an embedder or searchable columns. (Computed columns are not run, so no row
   * waits for them.)
   */
  stale: z.number().int(),
  /**
   * Stale rows an embedding job is embedding right now (claimed, not yet written back); `indexing ≤ stale`. 0 without
   * an embedder or searchable columns (decision 0860).
   */
  indexing: z.number().int(),
}

const rowsArray = <T extends z.ZodType>(row: T) => z.array(row).min(1).max(tablesLimits.rowsPerWrite)

/** `warnings` / `errors` of write responses (decision 0403: `errors` is never set, writes are all-or-nothing). */
const WriteNoticesShape = {
  warnings: z.array(z.string()).optional(),
  errors: z.array(z.string()).optional(),
}

/**
 * One output row of a `group` query: `<column><Op>` keys only (`statusKey`, `totalSum`, `nameUnique`).
 *
 * @example
 * ```ts
 * GroupRowSchema.parse({ statusKey: 'open', totalSum: 120 })
 * ```
 */
export const GroupRowSchema = z.record(z.string(), z.unknown())

/**
 * Query of `listTables`: equality tag filter (at most 50 keys, docs/decisions/0701-input-bounds.md), cursor
 * pagination (`nextToken`, `pageSize` 1–1000, default 1000).
 *
 * @example
 * ```ts
 * ListTablesQuerySchema.parse({ tags: { team: 'sales' } })
 * ```
 */
export const ListTablesQuerySchema = z.strictObject({
  tags: z
    .record(z.string(), z.string())
    .refine((tags) => Object.keys(tags).length <= tablesLimits.tagFilterKeysMax, {
      error: (issue) => `expected at most ${tablesLimits.tagFilterKeysMax} tag keys, received ${Object.keys(issue.input as object).length}`,
    })
    .optional(),
  nextToken: z.string().optional(),
  pageSize: z.number().int().min(1).max(tablesLimits.listTablesPageMax).optional(),
})

/**
 * Body of `createTable`.
 *
 * @example
 * ```ts
 * CreateTableBodySchema.parse({ name: 'ordersTable', schema: { total: 0, customer: '' } })
 * ```
 */
export const CreateTableBodySchema = z.strictObject({ name: TableNameSchema, ...TableSettingsShape })

/**
 * Body of `getOrCreateTable` (the name comes from the path).
 *
 * @example
 * ```ts
 * GetOrCreateTableBodySchema.parse({ schema: { type: 'object', properties: { name: { type: 'string' } } } })
 * ```
 */
export const GetOrCreateTableBodySchema = z.strictObject(TableSettingsShape)

/**
 * Body of `updateTable`: every field optional. `schema` is merged column by column; a column given as
 * `null` or `{ type: 'null' }` is removed (decision 0404).
 *
 * @example
 * ```ts
 * UpdateTableBodySchema.parse({ schema: { properties: { oldColumn: { type: 'null' } } }, factor: 2 })
 * ```
 */
export const UpdateTableBodySchema = z.strictObject({
  name: TableNameSchema.optional(),
  frozen: z.boolean().optional(),
  keyColumn: z.string().max(30).nullable().optional(),
  schema: SchemaInputSchema.optional(),
  tags: TableTagsSchema.optional(),
  isComputeEnabled: z.boolean().optional(),
  factor: z.number().int().min(tablesLimits.factorMin).max(tablesLimits.factorMax).optional(),
})

/**
 * Body of `duplicateTable`.
 *
 * @example
 * ```ts
 * DuplicateTableBodySchema.parse({ tableName: 'ordersCopyTable', schemaOnly: true })
 * ```
 */
export const DuplicateTableBodySchema = z.strictObject({
  tableName: TableNameSchema.optional(),
  schemaOnly: z.boolean().optional(),
  factor: z.number().int().min(tablesLimits.factorMin).max(tablesLimits.factorMax).optional(),
})

/**
 * Body of `renameTableColumn`.
 *
 * @example
 * ```ts
 * RenameTableColumnBodySchema.parse({ name: 'fullname', newName: 'fullName' })
 * ```
 */
export const RenameTableColumnBodySchema = z.strictObject({
  name: z.string().min(1).max(30),
  newName: z.string().min(1).max(30),
})

/**
 * Body of `findTableRows`. `select` lists at most 100 columns or dot paths (docs/decisions/0701-input-bounds.md):
 * each is copied out of every row returned.
 *
 * @example
 * ```ts
 * FindTableRowsBodySchema.parse({ filter: { status: 'open' }, orderBy: 'createdAt', orderDirection: 'desc', limit: 20 })
 * ```
 */
export const FindTableRowsBodySchema = z.strictObject({
  limit: z.number().int().min(1).max(tablesLimits.findLimitMax).optional(),
  offset: z.number().int().min(0).optional(),
  filter: RowFilterSchema.optional(),
  group: GroupSchema.optional(),
  search: z.string().max(tablesLimits.searchMax).optional(),
  select: z.array(z.string().min(1)).max(tablesLimits.selectMax).optional(),
  orderBy: z.string().min(1).optional(),
  orderDirection: z.enum(['asc', 'desc']).optional(),
})

/**
 * Body of `createTableRows`: 1 to 1000 rows.
 *
 * @example
 * ```ts
 * CreateTableRowsBodySchema.parse({ rows: [{ name: 'Ada' }] })
 * ```
 */
export const CreateTableRowsBodySchema = z.strictObject({
  rows: rowsArray(NewRowSchema),
  waitComputed: z.boolean().optional(),
})

/**
 * Body of `updateTableRows`: 1 to 1000 rows, each with its `id`.
 *
 * @example
 * ```ts
 * UpdateTableRowsBodySchema.parse({ rows: [{ id: 1, name: 'Ada Lovelace' }] })
 * ```
 */
export const UpdateTableRowsBodySchema = z.strictObject({
  rows: rowsArray(RowUpdateSchema),
  waitComputed: z.boolean().optional(),
})

/**
 * Body of `upsertTableRows`: 1 to 1000 rows matched on `keyColumn` (default `id`).
 *
 * @example
 * ```ts
 * UpsertTableRowsBodySchema.parse({ rows: [{ email: 'ada@example.com', name: 'Ada' }], keyColumn: 'email' })
 * ```
 */
export const UpsertTableRowsBodySchema = z.strictObject({
  rows: rowsArray(RowUpsertSchema),
  keyColumn: z.string().min(1).max(30).optional(),
  waitComputed: z.boolean().optional(),
})

/**
 * Body of `deleteTableRows`: exactly one of `ids` (at most 1000), `filter`, `deleteAllRows: true`.
 *
 * @example
 * ```ts
 * DeleteTableRowsBodySchema.parse({ ids: [1, 2, 3] })
 * ```
 */
export const DeleteTableRowsBodySchema = z.strictObject({
  ids: z.array(RowIdSchema).max(tablesLimits.rowsPerWrite).optional(),
  filter: RowFilterSchema.optional(),
  deleteAllRows: z.boolean().optional(),
})

/**
 * Query of `exportTable`.
 *
 * @example
 * ```ts
 * ExportTableQuerySchema.parse({ format: 'csv', compress: false })
 * ```
 */
export const ExportTableQuerySchema = z.strictObject({
  format: z.enum(['csv', 'json']).optional(),
  compress: z.boolean().optional(),
  /**
   * botshelf extension, CSV only: `true` writes text starting with `=`, `+`, `-`, `@`, a tab or a carriage return as
   * it is. By default such text gets a leading `'` so that a spreadsheet opening the export shows it instead of
   * running it (decision 1462).
   */
  rawFormulas: z.boolean().optional(),
})

/**
 * Body of `importTable`: a Files API file id (CSV or JSON, gzipped or not).
 *
 * @example
 * ```ts
 * ImportTableBodySchema.parse({ fileId: 'file_01J...' })
 * ```
 */
export const ImportTableBodySchema = z.strictObject({ fileId: z.string().min(1) })

/**
 * `GET /v1/tables`: the bot's tables, oldest first, cursor-paginated (page default 1000).
 *
 * @example
 * ```ts
 * const { tables, meta } = await client.listTables({ tags: { team: 'sales' } })
 * ```
 */
export const listTables = defineOperation({
  name: 'listTables',
  method: 'GET',
  path: '/v1/tables',
  summary: 'List the bot’s tables (equality tag filter, cursor pagination)',
  query: ListTablesQuerySchema,
  response: z.object({ tables: z.array(TableSchema), meta: ListMetaSchema }),
})

/**
 * `POST /v1/tables`: create a table from any of the three schema forms.
 *
 * @example
 * ```ts
 * const { table } = await client.createTable({ name: 'ordersTable', schema: { total: 0 } })
 * ```
 */
export const createTable = defineOperation({
  name: 'createTable',
  method: 'POST',
  path: '/v1/tables',
  summary: 'Create a table',
  body: CreateTableBodySchema,
  response: z.object({ table: TableSchema }),
})

/**
 * `GET /v1/tables/{table}`: a table with its row counts.
 *
 * @example
 * ```ts
 * const { table, rows } = await client.getTable({ table: 'ordersTable' })
 * ```
 */
export const getTable = defineOperation({
  name: 'getTable',
  method: 'GET',
  path: '/v1/tables/{table}',
  summary: 'Get a table by name or id, with its row counts',
  params: TableParamsSchema,
  response: z.object({ table: TableSchema, ...TableCountsShape }),
})

/**
 * `POST /v1/tables/{table}`: get the table named in the path, or create it with the body.
 *
 * @example
 * ```ts
 * const { table, created } = await client.getOrCreateTable({ table: 'ordersTable', schema: { total: 0 } })
 * ```
 */
export const getOrCreateTable = defineOperation({
  name: 'getOrCreateTable',
  method: 'POST',
  path: '/v1/tables/{table}',
  summary: 'Get a table, or create it when missing',
  params: TableParamsSchema,
  body: GetOrCreateTableBodySchema,
  response: z.object({ table: TableSchema, created: z.boolean(), ...TableCountsShape }),
})

/**
 * `PUT /v1/tables/{table}`: rename, change the schema, frozen, keyColumn, tags, factor (only up).
 *
 * @example
 * ```ts
 * await client.updateTable({ table: 'ordersTable', schema: { properties: { note: { type: 'string' } } } })
 * ```
 */
export const updateTable = defineOperation({
  name: 'updateTable',
  method: 'PUT',
  path: '/v1/tables/{table}',
  summary: 'Update a table (name, schema, frozen, keyColumn, tags, factor)',
  params: TableParamsSchema,
  body: UpdateTableBodySchema,
  // `resetColumns` and `warnings` are botshelf's: the columns whose values a type change reset to null (decision 1426).
  response: z.object({ table: TableSchema, staleColumns: z.array(z.string()).optional(), resetColumns: z.array(z.string()).optional(), warnings: z.array(z.string()).optional() }),
})

/**
 * `DELETE /v1/tables/{table}`: delete a table and all its rows.
 *
 * @example
 * ```ts
 * await client.deleteTable({ table: 'ordersTable' })
 * ```
 */
export const deleteTable = defineOperation({
  name: 'deleteTable',
  method: 'DELETE',
  path: '/v1/tables/{table}',
  summary: 'Delete a table and its rows',
  params: TableParamsSchema,
  response: z.object({}),
})

/**
 * `POST /v1/tables/{sourceTableId}/duplicate`: copy a table (schema, and rows unless `schemaOnly`).
 *
 * @example
 * ```ts
 * const { table, rows } = await client.duplicateTable({ sourceTableId: 'ordersTable', tableName: 'ordersCopyTable' })
 * ```
 */
export const duplicateTable = defineOperation({
  name: 'duplicateTable',
  method: 'POST',
  path: '/v1/tables/{sourceTableId}/duplicate',
  summary: 'Duplicate a table (schema, and rows unless schemaOnly)',
  params: z.object({ sourceTableId: z.string().min(1) }),
  body: DuplicateTableBodySchema,
  response: z.object({ table: TableSchema, rows: z.number().int(), job: JobRefSchema.optional() }),
})

/**
 * `GET /v1/tables/{table}/export`: export the rows to a Files API file (CSV or JSON, gzip by default).
 *
 * @example
 * ```ts
 * const { job } = await client.exportTable({ table: 'ordersTable', format: 'csv', compress: false })
 * ```
 */
export const exportTable = defineOperation({
  name: 'exportTable',
  method: 'GET',
  path: '/v1/tables/{table}/export',
  summary: 'Export a table to a file (CSV or JSON, gzip or not)',
  params: TableParamsSchema,
  query: ExportTableQuerySchema,
  response: z.object({ job: TableJobSchema }),
})

/**
 * `GET /v1/tables/{table}/jobs`: the table's recent jobs, newest first.
 *
 * @example
 * ```ts
 * const { jobs } = await client.getTableJobs({ table: 'ordersTable' })
 * ```
 */
export const getTableJobs = defineOperation({
  name: 'getTableJobs',
  method: 'GET',
  path: '/v1/tables/{table}/jobs',
  summary: 'List a table’s recent jobs',
  params: TableParamsSchema,
  response: z.object({ jobs: z.array(TableJobSchema) }),
})

/**
 * `POST /v1/tables/{table}/import`: add the rows of a Files API file (CSV or JSON, gzipped or not).
 *
 * @example
 * ```ts
 * const { job } = await client.importTable({ table: 'ordersTable', fileId: file.id })
 * ```
 */
export const importTable = defineOperation({
  name: 'importTable',
  method: 'POST',
  path: '/v1/tables/{table}/import',
  summary: 'Import rows from a file (CSV or JSON, gzip or not)',
  params: TableParamsSchema,
  body: ImportTableBodySchema,
  response: z.object({ job: TableJobSchema }),
})

/**
 * `PUT /v1/tables/{table}/column`: rename a column (its data follows).
 *
 * @example
 * ```ts
 * await client.renameTableColumn({ table: 'ordersTable', name: 'cust', newName: 'customer' })
 * ```
 */
export const renameTableColumn = defineOperation({
  name: 'renameTableColumn',
  method: 'PUT',
  path: '/v1/tables/{table}/column',
  summary: 'Rename a column',
  params: TableParamsSchema,
  body: RenameTableColumnBodySchema,
  response: z.object({ table: TableSchema }),
})

/**
 * `GET /v1/tables/{table}/row?id=N`: one row.
 *
 * @example
 * ```ts
 * const { row } = await client.getTableRow({ table: 'ordersTable', id: 1 })
 * ```
 */
export const getTableRow = defineOperation({
  name: 'getTableRow',
  method: 'GET',
  path: '/v1/tables/{table}/row',
  summary: 'Get one row by id',
  params: TableParamsSchema,
  query: z.strictObject({ id: RowIdSchema }),
  response: z.object({ row: RowSchema }),
})

/**
 * `POST /v1/tables/{table}/rows/find`: filter, search, group, select, sort and page rows.
 *
 * @example
 * ```ts
 * const { rows, hasMore } = await client.findTableRows({ table: 'ordersTable', filter: { total: { $gte: 100 } } })
 * ```
 */
export const findTableRows = defineOperation({
  name: 'findTableRows',
  method: 'POST',
  path: '/v1/tables/{table}/rows/find',
  summary: 'Find rows (filter, search, group, select, order, limit/offset)',
  params: TableParamsSchema,
  body: FindTableRowsBodySchema,
  response: z.object({
    /** Rows, or group rows (`{ statusKey, totalSum, ... }`) when `group` is given. */
    rows: z.union([z.array(RowSchema), z.array(GroupRowSchema)]),
    hasMore: z.boolean(),
    offset: z.number().int(),
    limit: z.number().int(),
    warnings: z.array(z.string()).optional(),
  }),
})

/**
 * `POST /v1/tables/{table}/rows`: insert 1 to 1000 rows (all or nothing).
 *
 * @example
 * ```ts
 * const { rows } = await client.createTableRows({ table: 'ordersTable', rows: [{ total: 12 }] })
 * ```
 */
export const createTableRows = defineOperation({
  name: 'createTableRows',
  method: 'POST',
  path: '/v1/tables/{table}/rows',
  summary: 'Insert rows',
  params: TableParamsSchema,
  body: CreateTableRowsBodySchema,
  response: z.object({ rows: z.array(RowSchema), ...WriteNoticesShape }),
})

/**
 * `PUT /v1/tables/{table}/rows`: change columns of 1 to 1000 rows by id (all or nothing).
 *
 * @example
 * ```ts
 * await client.updateTableRows({ table: 'ordersTable', rows: [{ id: 1, total: 13 }] })
 * ```
 */
export const updateTableRows = defineOperation({
  name: 'updateTableRows',
  method: 'PUT',
  path: '/v1/tables/{table}/rows',
  summary: 'Update rows by id',
  params: TableParamsSchema,
  body: UpdateTableRowsBodySchema,
  response: z.object({ rows: z.array(RowSchema), ...WriteNoticesShape }),
})

/**
 * `POST /v1/tables/{table}/rows/upsert`: insert or update 1 to 1000 rows matched on a key column.
 *
 * @example
 * ```ts
 * const { inserted, updated } = await client.upsertTableRows({ table: 'usersTable', keyColumn: 'email', rows: [{ email: 'a@b.c' }] })
 * ```
 */
export const upsertTableRows = defineOperation({
  name: 'upsertTableRows',
  method: 'POST',
  path: '/v1/tables/{table}/rows/upsert',
  summary: 'Insert or update rows matched on a key column',
  params: TableParamsSchema,
  body: UpsertTableRowsBodySchema,
  response: z.object({ inserted: z.array(RowSchema), updated: z.array(RowSchema), ...WriteNoticesShape }),
})

/**
 * `POST /v1/tables/{table}/rows/delete`: delete by `ids`, by `filter`, or everything (`deleteAllRows`).
 *
 * @example
 * ```ts
 * const { deletedRows } = await client.deleteTableRows({ table: 'ordersTable', filter: { total: { $lt: 1 } } })
 * ```
 */
export const deleteTableRows = defineOperation({
  name: 'deleteTableRows',
  method: 'POST',
  path: '/v1/tables/{table}/rows/delete',
  summary: 'Delete rows by ids, by filter, or all rows',
  params: TableParamsSchema,
  body: DeleteTableRowsBodySchema,
  response: z.object({ deletedRows: z.number().int(), job: JobRefSchema.optional() }),
})

/**
 * Every Tables API operation, keyed by its `@botpress/client` method name.
 *
 * @example
 * ```ts
 * for (const op of Object.values(tablesOperations)) console.log(op.method, op.path)
 * ```
 */
export const tablesOperations = {
  listTables,
  createTable,
  getTable,
  getOrCreateTable,
  updateTable,
  deleteTable,
  duplicateTable,
  exportTable,
  getTableJobs,
  importTable,
  renameTableColumn,
  getTableRow,
  findTableRows,
  createTableRows,
  updateTableRows,
  upsertTableRows,
  deleteTableRows,
} as const
