import { takeBackup, type BackupSource } from '../backup/index.js'
import { dataFolder, hasDatabase } from '../platform/index.js'
import { openSqliteSnapshot } from '../store/open-backend.js'
import { parseCommandArgs } from './args.js'
import { cliTransferProgress, withInterrupt } from './dataset-transfer.js'
import { UsageError, type CliIo } from './io.js'
import { formatBytes } from './output/index.js'
import { describeStorage, openStorageForManagement, resolveStorage, storageOptionTable } from './storage-options.js'

/**
 * Help text of `botshelf backup`.
 *
 * @example
 * ```ts
 * process.stdout.write(backupHelp)
 * ```
 */
export const backupHelp = `Usage: botshelf backup --out DIR [--data DIR] [--database URL] [--blobs URL]

Backs up the dataset while "botshelf serve" keeps serving it: a consistent snapshot of the metadata (the embedded
database through SQLite's online backup; on PostgreSQL one transaction's snapshot), then the content of every file,
stored by its sha256. Run it again with the same --out: the new snapshot copies only content the folder does not
hold yet. Every copy is checked against its file's sha256; every part of a snapshot gets a checksum
("botshelf restore" checks them all).

  DIR/content/<sha256>       every content blob once, shared by all snapshots
  DIR/snapshots/<UTC time>/  one snapshot each (manifest.json, parts/)

A snapshot is written beside and renamed when complete: a failure or Ctrl-C leaves the earlier ones as they were.
Content the service deletes before it is copied makes the backup take a new snapshot (three tries).

Options:
  --out <dir>      the backup folder (created when missing; earlier snapshots stay)
  --data <dir>     data folder (default ./.botshelf)
  --database <url> PostgreSQL source (else BOTSHELF_DATABASE_URL)
  --blobs <url>    S3 content of a PostgreSQL source (else BOTSHELF_BLOBS_URL)
  -h, --help       show this help

Restore with "botshelf restore --from DIR". On PostgreSQL + S3, the database's own tools and bucket versioning are
the other way (docs/operations.md, "Backups"). The snapshot's folder goes to standard output.`

/**
 * Runs `botshelf backup`: a snapshot of the dataset the storage flags name into a backup folder, while it is
 * served. Returns the exit code.
 *
 * @example
 * ```ts
 * await backupCommand(['--data', './.botshelf', '--out', './backups'], { stdout: process.stdout, stderr: process.stderr })
 * ```
 */
export async function backupCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(args, { ...storageOptionTable, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, 'backup')
  if (values.help) {
    io.stdout.write(`${backupHelp}\n`)
    return 0
  }
  if (values.out === undefined || values.out === '') throw new UsageError('--out: expected the backup folder, received nothing. Run "botshelf backup --help" for usage.')
  const storage = resolveStorage(values)
  if (storage.databaseUrl === undefined && !hasDatabase(dataFolder(storage.dataDir))) {
    throw new UsageError(`--data ${storage.dataDir}: no botshelf data folder there (missing botshelf.db); nothing to back up`)
  }
  // Beside a running server: never the folder's lock. Its blob store reads the live content.
  const live = await openStorageForManagement(storage)
  const source: BackupSource = {
    describe: describeStorage(storage),
    blobs: live.blobs,
    openSnapshot: async (workDir) => {
      if (storage.databaseUrl !== undefined) return { backend: live, release: async () => undefined }
      const snapshot = await openSqliteSnapshot(storage.dataDir, workDir)
      return { backend: snapshot, release: () => snapshot.close() }
    },
  }
  const progress = cliTransferProgress(io, 'backup')
  try {
    io.stderr.write(`backup ${describeStorage(storage)} to ${values.out}\n`)
    const started = performance.now()
    const result = await withInterrupt(io, (signal) => takeBackup(source, values.out!, { progress, signal }))
    const { totals } = result.manifest
    io.stderr.write(
      `backed up ${totals.records} records, ${totals.tables} tables (${totals.rows} rows) and ${totals.blobs} files' content: ` +
        `${result.copied.blobs} blobs copied (${formatBytes(result.copied.bytes)}), ${result.reused} already in the folder` +
        `${result.retries > 0 ? `, after ${result.retries} new snapshots (content deleted meanwhile)` : ''} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    )
    io.stdout.write(`${result.snapshot}\n`)
    return 0
  } finally {
    progress.stop()
    await live.close()
  }
}
