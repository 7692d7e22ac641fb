export { runCli, mainHelp } from './main.js'
export { serveCommand, serveHelp, type ServeHandle } from './serve.js'
export { tokenCommand, tokenHelp } from './token.js'
export { botCommand, botHelp } from './bot.js'
export { openAuthStore, type StorageFlags } from './open-store.js'
export { UsageError, type CliIo } from './io.js'
export { migrateCommand, migrateHelp } from './migrate.js'
export {
  DATABASE_URL_VARIABLE,
  DEFAULT_DATA_DIR,
  describeStorage,
  openStorage,
  openStorageForManagement,
  resolveStorage,
  storageOptionTable,
  type BlobsSetting,
  type StorageSettings,
} from './storage-options.js'
