import type { Clock } from '../../clock.js'
import type { TablesPort } from '../../tables/tables-port.js'
import type { PgSql } from '../pg-types.js'
import * as catalog from './catalog.js'
import { CatalogCache, DEFAULT_CATALOG_CACHE_SIZE } from './catalog-cache.js'
import { inTransaction, rereadingStale, tablesContext } from './context.js'
import { findRows } from './find.js'
import * as jobs from './jobs.js'
import * as rows from './rows.js'
import * as staging from './import-staging.js'
import { restoreRows, restoreTable } from './restore.js'
import { updateTable } from './update.js'
import { upsertRows } from './upsert.js'
import * as vectors from './row-vectors.js'
import { atomically } from './context.js'
import { runtimeOf } from './runtime.js'
import { storedBytes } from './stored-bytes.js'
import type { VectorMode } from '../search/vector-mode.js'

/** What the PostgreSQL tables port needs besides its connection. */
export interface PostgresTablesDeps {
  /**
   * The clock of every timestamp the port writes (tests pass a fake one).
   *
   * @example
   * ```ts
   * createPostgresTablesPort(pool, { now: () => new Date('2026-01-01T00:00:00Z') })
   * ```
   */
  now: Clock
  /**
   * How row vectors are stored (default `exact`): the backend passes the search index's choice (`vectorModeOf`).
   *
   * @example
   * ```ts
   * createPostgresTablesPort(sql, { now, vectors: 'pgvector' })
   * ```
   */
  vectors?: VectorMode
  /**
   * How many catalog records finds keep per port on the pool (default 1000, 0 keeps none; decision 0963): a find of
   * a kept table is one round trip, checked against the catalog in the same statement. Ignored in a transaction.
   *
   * @example
   * ```ts
   * createPostgresTablesPort(pool, { now, findCatalogCacheSize: 5000 })
   * ```
   */
  findCatalogCacheSize?: number
}

/**
 * The tables port on PostgreSQL (docs/decisions/0910-postgres-tables.md), bound to `sql`: the pool, or one
 * transaction (the backend calls it once with the pool and once per `backend.transaction` with the
 * transaction's `sql`). Each user table is a real PostgreSQL table `ut_<ulid>` with typed columns, b-tree
 * indexes, a unique key index and a generated `tsvector` search column; the catalog, tags and jobs live in the
 * tables of `postgresTablesMigrations`. Filters, sorting and groups compile from the same AST and plans as on
 * SQLite, to the same results. Every write runs all or nothing: in its own transaction on the pool, in a
 * savepoint inside a transaction. The `sql` given must return columns as named (no column name transform).
 *
 * @example
 * ```ts
 * const tables = createPostgresTablesPort(pool, { now: () => new Date() })
 * await tables.createTable('bot_1', { name: 'ordersTable', schema: { total: 0 } })
 * await tables.createRows('bot_1', 'ordersTable', [{ total: 12 }])
 * ```
 */
export function createPostgresTablesPort(sql: PgSql, deps: PostgresTablesDeps): TablesPort {
  const context = tablesContext(sql, deps.now, deps.vectors)
  const findCache = inTransaction(sql) ? undefined : new CatalogCache(deps.findCatalogCacheSize ?? DEFAULT_CATALOG_CACHE_SIZE)
  return {
    loadTable: (botId, ref) => catalog.loadTable(context, botId, ref),
    listTables: (botId, request) => catalog.listTables(context, botId, request),
    createTable: (botId, input) => catalog.createTable(context, botId, input),
    getTable: (botId, ref) => rereadingStale(context, async () => catalog.withCounts(context, await catalog.loadTable(context, botId, ref))),
    storedBytes: (botId, ref) => rereadingStale(context, () => storedBytes(context, botId, ref)),
    getOrCreateTable: (botId, name, input) => catalog.getOrCreateTable(context, botId, name, input),
    deleteTable: (botId, ref) => catalog.deleteTable(context, botId, ref),
    duplicateTable: (botId, ref, options) => catalog.duplicateTable(context, botId, ref, options),
    renameColumn: (botId, ref, name, newName) => catalog.renameColumn(context, botId, ref, name, newName),
    updateTable: (botId, ref, input) => updateTable(context, botId, ref, input),
    getRow: (botId, ref, id) => rereadingStale(context, () => rows.getRow(context, botId, ref, id)),
    createRows: (botId, ref, input) => rows.createRows(context, botId, ref, input),
    stageImportRows: (botId, ref, tableJobId, input, firstRowIndex) => rereadingStale(context, () => staging.stageImportRows(context, botId, ref, tableJobId, input, firstRowIndex)),
    stagedImportRows: (tableJobId) => staging.stagedImportRows(context, tableJobId),
    publishImportRows: (botId, ref, tableJobId, from, count) => rereadingStale(context, () => staging.publishImportRows(context, botId, ref, tableJobId, from, count)),
    dropImportStaging: (tableJobId) => staging.dropImportStaging(context, tableJobId),
    importRows: (botId, ref, input, firstRowIndex) => rows.importRows(context, botId, ref, input, firstRowIndex),
    updateRows: (botId, ref, input) => rows.updateRows(context, botId, ref, input),
    upsertRows: (botId, ref, input, keyColumn) => upsertRows(context, botId, ref, input, keyColumn),
    deleteRows: (botId, ref, input) => rows.deleteRows(context, botId, ref, input),
    findRows: (botId, ref, request) => rereadingStale(context, () => findRows(context, botId, ref, request, findCache)),
    listJobs: (botId, ref) => jobs.listJobs(context, botId, ref),
    createJob: (botId, tableId, type, files) => jobs.createJob(context, botId, tableId, type, files),
    getJob: (id) => jobs.getJob(context, id),
    updateJob: (id, change) => jobs.updateJob(context, id, change),
    rowVectorCounts: (botId, ref, embedderId) =>
      rereadingStale(context, async () => vectors.rowVectorCounts(context, runtimeOf(await catalog.loadTable(context, botId, ref)), embedderId)),
    claimStaleRows: (botId, ref, input) =>
      atomically(context, async (tx) => vectors.claimStaleRows(tx, runtimeOf(await catalog.loadTable(tx, botId, ref, true)), input)),
    setRowVectors: (botId, ref, input) =>
      atomically(context, async (tx) => vectors.setRowVectors(tx, runtimeOf(await catalog.loadTable(tx, botId, ref)), input)),
    tablesWithStaleRows: (embedderId) => vectors.tablesWithStaleRows(context, embedderId),
    restoreTable: (botId, snapshot) => restoreTable(context, botId, snapshot),
    restoreRows: (botId, ref, input, firstRowIndex) => restoreRows(context, botId, ref, input, firstRowIndex),
  }
}
