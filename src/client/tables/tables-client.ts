import * as ops from '../../api/tables/operations.js'
import { FilesClient } from '../files/files-client.js'
import type { CallOptions } from '../http/call-options.js'
import type { Row } from '../../api/tables/row.js'
import type { ClientInput, ClientOutput, Simplify } from '../operation-types.js'

/**
 * Response of `findTableRows`, typed like `@botpress/client` (`rows: Row[]`) so code written for it
 * compiles unchanged. With `group`, the rows are group rows (`{ statusKey, totalCount, ... }`) at run
 * time; read them through the index signature.
 *
 * @example
 * ```ts
 * const { rows, hasMore }: FindTableRowsOutput = await client.findTableRows({ table: 'ordersTable' })
 * ```
 */
export type FindTableRowsOutput = Simplify<Omit<ClientOutput<typeof ops.findTableRows>, 'rows'> & { rows: Row[] }>

/**
 * The Tables API operations (docs/wire-format.md §13), with the names and shapes of `@botpress/client`.
 * Every method takes the flat input object and, optionally, call options (`signal`, `timeout`, `headers`).
 */
export abstract class TablesClient extends FilesClient {
  /**
   * Lists one page of the bot's tables (equality tag filter). Use `client.list.tables(...)` for every page.
   *
   * @example
   * ```ts
   * const { tables } = await client.listTables({ tags: { team: 'sales' } })
   * ```
   */
  public readonly listTables = (input: ClientInput<typeof ops.listTables>, options?: CallOptions): Promise<ClientOutput<typeof ops.listTables>> =>
    this.call(ops.listTables, input, options)

  /**
   * Gets a table by name or id, with its row counts.
   *
   * @example
   * ```ts
   * const { table, rows } = await client.getTable({ table: 'ordersTable' })
   * ```
   */
  public readonly getTable = (input: ClientInput<typeof ops.getTable>, options?: CallOptions): Promise<ClientOutput<typeof ops.getTable>> =>
    this.call(ops.getTable, input, options)

  /**
   * Gets a table by name, creating it with the given schema when it does not exist (`created` tells which).
   *
   * @example
   * ```ts
   * const { table, created } = await client.getOrCreateTable({ table: 'ordersTable', schema: { total: 0, customer: '' } })
   * ```
   */
  public readonly getOrCreateTable = (input: ClientInput<typeof ops.getOrCreateTable>, options?: CallOptions): Promise<ClientOutput<typeof ops.getOrCreateTable>> =>
    this.call(ops.getOrCreateTable, input, options)

  /**
   * Creates a table. `schema` is a JSON schema, a column map, or an example row.
   *
   * @example
   * ```ts
   * const { table } = await client.createTable({ name: 'ordersTable', schema: { total: 0, customer: '' }, keyColumn: 'customer' })
   * ```
   */
  public readonly createTable = (input: ClientInput<typeof ops.createTable>, options?: CallOptions): Promise<ClientOutput<typeof ops.createTable>> =>
    this.call(ops.createTable, input, options)

  /**
   * Copies a table, with or without its rows.
   *
   * @example
   * ```ts
   * const { table } = await client.duplicateTable({ sourceTableId: 'ordersTable', tableName: 'ordersCopyTable', schemaOnly: true })
   * ```
   */
  public readonly duplicateTable = (input: ClientInput<typeof ops.duplicateTable>, options?: CallOptions): Promise<ClientOutput<typeof ops.duplicateTable>> =>
    this.call(ops.duplicateTable, input, options)

  /**
   * Starts an export of a table's rows (CSV or JSON) and returns the job.
   *
   * @example
   * ```ts
   * const { job } = await client.exportTable({ table: 'ordersTable', format: 'csv' })
   * ```
   */
  public readonly exportTable = (input: ClientInput<typeof ops.exportTable>, options?: CallOptions): Promise<ClientOutput<typeof ops.exportTable>> =>
    this.call(ops.exportTable, input, options)

  /**
   * Lists the recent jobs (exports, imports, ...) of a table.
   *
   * @example
   * ```ts
   * const { jobs } = await client.getTableJobs({ table: 'ordersTable' })
   * ```
   */
  public readonly getTableJobs = (input: ClientInput<typeof ops.getTableJobs>, options?: CallOptions): Promise<ClientOutput<typeof ops.getTableJobs>> =>
    this.call(ops.getTableJobs, input, options)

  /**
   * Imports rows into an existing table from a Files API file (CSV or JSON).
   *
   * @example
   * ```ts
   * const { job } = await client.importTable({ table: 'ordersTable', fileId: file.id })
   * ```
   */
  public readonly importTable = (input: ClientInput<typeof ops.importTable>, options?: CallOptions): Promise<ClientOutput<typeof ops.importTable>> =>
    this.call(ops.importTable, input, options)

  /**
   * Updates a table's name, schema (merged column by column), key column, tags or settings.
   *
   * @example
   * ```ts
   * const { table } = await client.updateTable({ table: 'ordersTable', schema: { properties: { note: { type: 'string' } } } })
   * ```
   */
  public readonly updateTable = (input: ClientInput<typeof ops.updateTable>, options?: CallOptions): Promise<ClientOutput<typeof ops.updateTable>> =>
    this.call(ops.updateTable, input, options)

  /**
   * Renames a column, keeping its data.
   *
   * @example
   * ```ts
   * await client.renameTableColumn({ table: 'ordersTable', name: 'cust', newName: 'customer' })
   * ```
   */
  public readonly renameTableColumn = (input: ClientInput<typeof ops.renameTableColumn>, options?: CallOptions): Promise<ClientOutput<typeof ops.renameTableColumn>> =>
    this.call(ops.renameTableColumn, input, options)

  /**
   * Deletes a table and its rows.
   *
   * @example
   * ```ts
   * await client.deleteTable({ table: 'ordersTable' })
   * ```
   */
  public readonly deleteTable = (input: ClientInput<typeof ops.deleteTable>, options?: CallOptions): Promise<ClientOutput<typeof ops.deleteTable>> =>
    this.call(ops.deleteTable, input, options)

  /**
   * Gets one row by id.
   *
   * @example
   * ```ts
   * const { row } = await client.getTableRow({ table: 'ordersTable', id: 1 })
   * ```
   */
  public readonly getTableRow = (input: ClientInput<typeof ops.getTableRow>, options?: CallOptions): Promise<ClientOutput<typeof ops.getTableRow>> =>
    this.call(ops.getTableRow, input, options)

  /**
   * Finds rows with a filter, ordering, paging (`offset`/`limit`, `hasMore`), selection, grouping or search.
   *
   * @example
   * ```ts
   * const { rows, hasMore } = await client.findTableRows({ table: 'ordersTable', filter: { total: { $gte: 100 } }, orderBy: 'total', orderDirection: 'desc', limit: 20 })
   * ```
   */
  public readonly findTableRows = (input: ClientInput<typeof ops.findTableRows>, options?: CallOptions): Promise<FindTableRowsOutput> =>
    this.call(ops.findTableRows, input, options)

  /**
   * Inserts 1 to 1000 rows.
   *
   * @example
   * ```ts
   * const { rows } = await client.createTableRows({ table: 'ordersTable', rows: [{ customer: 'Ada', total: 120 }] })
   * ```
   */
  public readonly createTableRows = (input: ClientInput<typeof ops.createTableRows>, options?: CallOptions): Promise<ClientOutput<typeof ops.createTableRows>> =>
    this.call(ops.createTableRows, input, options)

  /**
   * Deletes rows by `ids`, by `filter`, or all of them (`deleteAllRows: true`).
   *
   * @example
   * ```ts
   * const { deletedRows } = await client.deleteTableRows({ table: 'ordersTable', ids: [1, 2] })
   * ```
   */
  public readonly deleteTableRows = (input: ClientInput<typeof ops.deleteTableRows>, options?: CallOptions): Promise<ClientOutput<typeof ops.deleteTableRows>> =>
    this.call(ops.deleteTableRows, input, options)

  /**
   * Updates 1 to 1000 rows, each identified by its `id`; only the given columns change.
   *
   * @example
   * ```ts
   * await client.updateTableRows({ table: 'ordersTable', rows: [{ id: 1, total: 130 }] })
   * ```
   */
  public readonly updateTableRows = (input: ClientInput<typeof ops.updateTableRows>, options?: CallOptions): Promise<ClientOutput<typeof ops.updateTableRows>> =>
    this.call(ops.updateTableRows, input, options)

  /**
   * Inserts or updates 1 to 1000 rows matched on `keyColumn` (default `id`).
   *
   * @example
   * ```ts
   * const { inserted, updated } = await client.upsertTableRows({ table: 'ordersTable', keyColumn: 'customer', rows: [{ customer: 'Ada', total: 140 }] })
   * ```
   */
  public readonly upsertTableRows = (input: ClientInput<typeof ops.upsertTableRows>, options?: CallOptions): Promise<ClientOutput<typeof ops.upsertTableRows>> =>
    this.call(ops.upsertTableRows, input, options)
}
