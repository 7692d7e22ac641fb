// Backups taken while serving and restores into an empty dataset (`botshelf backup`, `botshelf restore`; decision
// 1442): the backup folder's layout, taking a snapshot, restoring one.
export { backupPaths, chooseSnapshot, listSnapshots, snapshotName } from './backup-folder.js'
export { takeBackup, type BackupOptions, type BackupResult, type BackupSource } from './take-backup.js'
export { restoreBackup, type RestoreOptions, type RestoreResult } from './restore-backup.js'
