// The auth store on SQLite and its migrations, as the adapter's root (backend.ts) uses them.
export { AuthStore } from './auth-port.js'
export { authMigrations } from './migrations.js'
