import { restoreBackup } from '../backup/index.js'
import { parseCommandArgs } from './args.js'
import { cliTransferProgress, withInterrupt } from './dataset-transfer.js'
import { UsageError, type CliIo } from './io.js'
import { formatBytes } from './output/index.js'
import { describeStorage, openStorage, resolveStorage, storageOptionTable } from './storage-options.js'

/**
 * Help text of `botshelf restore`.
 *
 * @example
 * ```ts
 * process.stdout.write(restoreHelp)
 * ```
 */
export const restoreHelp = `Usage: botshelf restore --from DIR [--snapshot NAME] [--data DIR] [--database URL] [--blobs URL]

Restores a snapshot of a backup folder made by "botshelf backup" (the latest, or --snapshot) into an empty
dataset: a new data folder (--data, default ./.botshelf), or an empty PostgreSQL database (--database URL or
BOTSHELF_DATABASE_URL) with content in S3 (--blobs) or the data folder. Either way round: a backup of the embedded
folder restores into PostgreSQL, and back.

Every part is checked against the snapshot's manifest and every content blob against its sha256 before anything
is committed; a mismatch, a failure or Ctrl-C leaves the target as it was. Then start "botshelf serve" on it.

Options:
  --from <dir>      the backup folder
  --snapshot <name> a snapshot of it (a folder name under DIR/snapshots; default the latest)
  --data <dir>      data folder to restore into (default ./.botshelf)
  --database <url>  PostgreSQL target (else BOTSHELF_DATABASE_URL)
  --blobs <url>     S3 content of a PostgreSQL target (else BOTSHELF_BLOBS_URL)
  -h, --help        show this help`

/**
 * Runs `botshelf restore`: a backup folder's snapshot into the empty dataset the storage flags name. Returns the
 * exit code.
 *
 * @example
 * ```ts
 * await restoreCommand(['--from', './backups', '--data', './restored'], { stdout: process.stdout, stderr: process.stderr })
 * ```
 */
export async function restoreCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(
    args,
    { ...storageOptionTable, from: { type: 'string' }, snapshot: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    'restore',
  )
  if (values.help) {
    io.stdout.write(`${restoreHelp}\n`)
    return 0
  }
  if (values.from === undefined || values.from === '') throw new UsageError('--from: expected a backup folder made by "botshelf backup", received nothing. Run "botshelf restore --help" for usage.')
  const storage = resolveStorage(values)
  const backend = await openStorage(storage)
  const progress = cliTransferProgress(io, 'restore')
  try {
    io.stderr.write(`restore ${values.from} into ${describeStorage(storage)}\n`)
    const result = await withInterrupt(io, (signal) => restoreBackup(backend, values.from!, { progress, signal, ...(values.snapshot !== undefined ? { snapshot: values.snapshot } : {}) }))
    const { totals } = result.manifest
    io.stderr.write(
      `restored ${result.snapshot}: ${totals.records} records, ${totals.tables} tables (${totals.rows} rows) and ${totals.blobs} blobs (${formatBytes(totals.blobBytes)}) ` +
        `in ${(result.seconds.verify + result.seconds.content + result.seconds.metadata).toFixed(1)} s; every checksum matched\n`,
    )
    return 0
  } finally {
    progress.stop()
    await backend.close()
  }
}
