import { BotshelfError } from '../../errors/index.js'
import type { TablesPort } from '../tables/tables-port.js'

const tablesMethods = [
  'loadTable',
  'listTables',
  'createTable',
  'getTable',
  'getOrCreateTable',
  'deleteTable',
  'duplicateTable',
  'renameColumn',
  'updateTable',
  'getRow',
  'createRows',
  'checkRows',
  'importRows',
  'updateRows',
  'upsertRows',
  'deleteRows',
  'findRows',
  'listJobs',
  'createJob',
  'getJob',
  'updateJob',
] as const satisfies ReadonlyArray<keyof TablesPort>

// Fails to compile when the port gains a method the list above does not name.
type OnlyNever<T extends never> = T
type UnlistedTablesMethods = OnlyNever<Exclude<keyof TablesPort, (typeof tablesMethods)[number]>>

/**
 * The tables port of a PostgreSQL backend until the PostgreSQL tables adapter is part of the build: every
 * method rejects with `BotshelfError` `TABLES_NOT_BUILT` (501-like `Internal`, naming the method), so the Files
 * API, auth and jobs work on PostgreSQL while a Tables call says plainly what is missing.
 *
 * @example
 * ```ts
 * await tablesNotBuiltOnPostgres().findRows(botId, 'ordersTable', {}) // rejects: tables are not built on PostgreSQL yet
 * ```
 */
export function tablesNotBuiltOnPostgres(): TablesPort {
  const port: Record<string, () => Promise<never>> = {}
  for (const method of tablesMethods) {
    port[method] = () =>
      Promise.reject(
        new BotshelfError('Internal', 'TABLES_NOT_BUILT', `tables are not built on PostgreSQL yet (tables.${method}); use the embedded SQLite backend for the Tables API`),
      )
  }
  return port as unknown as TablesPort
}
