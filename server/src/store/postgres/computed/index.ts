// The computed cells on PostgreSQL and their migrations, as the adapter's root uses them.
export { PgComputedCells } from './computed-cells.js'
export { computedMigrations as postgresComputedMigrations } from './migrations.js'
