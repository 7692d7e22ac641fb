export { dataFolder, ensureDataFolder, hasDatabase, readLegacySigningKey, type DataFolder } from './data-folder.js'
export { lockDataDir, type DataLock } from './data-lock.js'
export { fsyncFile, GroupFsync, type FsyncHandle, type HeldFsyncOptions } from './group-fsync.js'
export { spawnModuleWorker } from './spawn-module-worker.js'
