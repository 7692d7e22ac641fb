// The tables port on PostgreSQL: user tables as real PostgreSQL tables, the catalog's migrations.
export { createPostgresTablesPort, type PostgresTablesDeps } from './tables-port.js'
export { postgresTablesMigrations } from './migrations.js'
