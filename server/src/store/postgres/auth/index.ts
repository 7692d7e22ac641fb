// The auth port on PostgreSQL and its migrations, as the adapter's root (backend.ts) uses them.
export { PgAuthPort } from './auth-port.js'
export { postgresAuthMigrations } from './migrations.js'
