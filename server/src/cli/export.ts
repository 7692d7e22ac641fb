import { dataFolder, hasDatabase } from '../platform/index.js'
import { exportDataset } from '../dataset/index.js'
import { openBackend } from '../store/open-backend.js'
import { parseCommandArgs } from './args.js'
import { cliTransferProgress, withInterrupt } from './dataset-transfer.js'
import { UsageError, type CliIo } from './io.js'
import { formatBytes } from './output/index.js'
import { describeStorage, openStorageForManagement, resolveStorage, storageOptionTable } from './storage-options.js'

/**
 * Help text of `botshelf export`.
 *
 * @example
 * ```ts
 * process.stdout.write(exportHelp)
 * ```
 */
export const exportHelp = `Usage: botshelf export --out DIR [--data DIR] [--database URL] [--blobs URL]

Writes the whole dataset into a new archive folder: the workspace, bots, tokens (their SHA-256 hashes: tokens
keep working after an import), the signing key (signed URLs and cursors keep working), files (metadata, tags,
versions, content), knowledge bases, search passages with their vectors, tables with their rows (ids and times
kept), table jobs and the queued jobs that are not finished. Every part and every content blob gets a sha256 in
the archive ("botshelf import" checks them all).

The source is the embedded data folder (--data, default ./.botshelf), or PostgreSQL (--database URL or
BOTSHELF_DATABASE_URL) with content in S3 (--blobs s3://bucket/prefix or BOTSHELF_BLOBS_URL, with the
BOTSHELF_S3_* and AWS_* variables of "botshelf serve") or in the data folder.

The embedded folder is locked while exporting: stop its server first. On PostgreSQL the metadata is read in one
transaction (one consistent snapshot); stop the servers too, or content deleted meanwhile fails the export.
The archive is written beside --out and renamed when complete: a failure or Ctrl-C leaves nothing. To ship
it as one file: tar -czf backup.tgz -C DIR .

Options:
  --out <dir>      the archive folder to create (must not exist, or be empty)
  --data <dir>     data folder (default ./.botshelf)
  --database <url> PostgreSQL source (else BOTSHELF_DATABASE_URL)
  --blobs <url>    S3 content of a PostgreSQL source (else BOTSHELF_BLOBS_URL)
  -h, --help       show this help

Progress bars on a terminal; otherwise plain lines on standard error. The archive's path goes to standard output.`

/**
 * Runs `botshelf export`: the dataset the storage flags name into an archive folder. Returns the exit code.
 *
 * @example
 * ```ts
 * await exportCommand(['--data', './.botshelf', '--out', './backup'], { stdout: process.stdout, stderr: process.stderr })
 * ```
 */
export async function exportCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(args, { ...storageOptionTable, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, 'export')
  if (values.help) {
    io.stdout.write(`${exportHelp}\n`)
    return 0
  }
  if (values.out === undefined || values.out === '') throw new UsageError('--out: expected the archive folder to create, received nothing. Run "botshelf export --help" for usage.')
  const storage = resolveStorage(values)
  let backend
  if (storage.databaseUrl === undefined) {
    const folder = dataFolder(storage.dataDir)
    if (!hasDatabase(folder)) throw new UsageError(`--data ${storage.dataDir}: no botshelf data folder there (missing botshelf.db); nothing to export`)
    // The folder's lock: a running server would change the dataset under the export.
    backend = await openBackend({ dataDir: folder.root })
  } else {
    backend = await openStorageForManagement(storage)
  }
  const progress = cliTransferProgress(io, 'export')
  try {
    io.stderr.write(`export ${describeStorage(storage)} to ${values.out}\n`)
    const { manifest, seconds } = await withInterrupt(io, (signal) => exportDataset(backend, values.out!, { progress, signal, source: describeStorage(storage) }))
    const { totals } = manifest
    io.stderr.write(
      `exported ${totals.records} records, ${totals.tables} tables (${totals.rows} rows) and ${totals.blobs} blobs (${formatBytes(totals.blobBytes)}) ` +
        `in ${(seconds.metadata + seconds.content).toFixed(1)} s\n`,
    )
    io.stdout.write(`${values.out}\n`)
    return 0
  } finally {
    progress.stop()
    await backend.close()
  }
}
