export { openDatabase, type Sqlite } from './open-database.js'
export { runMigrations, type Migration } from './migrations.js'
export { authMigrations } from './auth-migrations.js'
export {
  AuthStore,
  AuthStoreError,
  type BotRecord,
  type CreateTokenInput,
  type CreatedToken,
  type TokenCheck,
  type TokenRecord,
} from './auth-store.js'
