import type { AppServices } from '../env.js'
import type { Sqlite } from '../../store/sqlite/open-database.js'
import { SqliteTablesStore } from '../../store/sqlite/tables-store.js'

const stores = new WeakMap<Sqlite, SqliteTablesStore>()

/**
 * The tables store of an app (one per database, created on first use with the app's clock).
 *
 * @example
 * ```ts
 * const store = tablesStoreOf(c.get('services'))
 * ```
 */
export function tablesStoreOf(services: AppServices): SqliteTablesStore {
  let store = stores.get(services.db)
  if (!store) {
    store = new SqliteTablesStore(services.db, { now: () => services.now() })
    stores.set(services.db, store)
  }
  return store
}
