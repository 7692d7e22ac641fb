export { runCli, mainHelp } from './main.js'
export { serveCommand, serveHelp, type ServeHandle } from './serve.js'
export { tokenCommand, tokenHelp } from './token.js'
export { botCommand, botHelp } from './bot.js'
export { openAuthStore, type StorageFlags } from './open-store.js'
export { UsageError, type CliIo } from './io.js'
export { filesCommand, filesHelp, tablesCommand, tablesHelp, loginCommand, logoutCommand, loginHelp, resolveConnection, type Connection } from './data/index.js'
export { exitCodes, type ExitCode } from './exit-codes.js'
export { describeFailure, InterruptedError } from './failure.js'
export { createProgress, renderTable, type Progress, type ProgressOptions } from './output/index.js'
export { type CliStream } from './io.js'
export { reindexCommand, reindexHelp } from './reindex.js'
export { usageCommand, usageHelp, formatBytes } from './usage.js'
export { quotaFlags, quotaFlagsHelp, parseQuotaFlags, parseByteSize } from './quota-flags.js'
export { migrateCommand, migrateHelp } from './migrate.js'
export { exportCommand, exportHelp } from './export.js'
export { importCommand, importHelp } from './import.js'
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
