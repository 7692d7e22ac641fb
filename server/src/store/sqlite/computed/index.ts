// The computed cells on SQLite and their migrations, as the adapter's root uses them.
export { SqliteComputedCells } from './computed-cells.js'
export { computedMigrations } from './migrations.js'
