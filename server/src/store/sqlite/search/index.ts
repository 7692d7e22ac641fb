// The search index on SQLite (FTS5, sqlite-vec, the vector lists) and its migrations, as the adapter's root uses them.
export { SqliteSearchStore } from './search-port.js'
export { SqliteVectorLists } from './vector-lists.js'
export { searchMigrations } from './migrations.js'
