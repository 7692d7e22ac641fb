// The tables store on SQLite (one SQLite table per user table) and its migrations, as the adapter's root uses them.
export { SqliteTablesStore, type TablesStoreOptions } from './tables-port.js'
export { tablesMigrations } from './migrations.js'
