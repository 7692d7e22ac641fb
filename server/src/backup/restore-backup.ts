import { importDataset, type ImportOptions, type ImportResult } from '../dataset/index.js'
import type { Backend } from '../store/backend.js'
import { chooseSnapshot } from './backup-folder.js'

/** Options of {@link restoreBackup}. */
export interface RestoreOptions extends ImportOptions {
  /** The snapshot to restore, by name (default: the latest). @example `{ snapshot: '20261128T020000000Z' }` */
  snapshot?: string
}

/** What {@link restoreBackup} did: the snapshot's folder and the import's report. */
export interface RestoreResult extends ImportResult {
  snapshot: string
}

/**
 * Restores a snapshot of a backup folder (the latest, or `snapshot`) into an empty backend: an embedded data folder
 * never served, or an empty PostgreSQL database. Every part is checked against the manifest and every blob's
 * content against its sha256 before anything is committed; any mismatch leaves the target as it was
 * (`importDataset`). Throws `DatasetArchiveError` naming what is wrong.
 *
 * @example
 * ```ts
 * const { snapshot } = await restoreBackup(await openBackend({ dataDir: './restored' }), './backups')
 * ```
 */
export async function restoreBackup(backend: Backend, from: string, options: RestoreOptions = {}): Promise<RestoreResult> {
  const snapshot = await chooseSnapshot(from, options.snapshot)
  const { snapshot: _name, ...importOptions } = options
  const result = await importDataset(backend, snapshot, importOptions)
  return { ...result, snapshot }
}
