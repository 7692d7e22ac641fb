import { importDataset } from '../dataset/index.js'
import { parseCommandArgs } from './args.js'
import { cliTransferProgress, withInterrupt } from './dataset-transfer.js'
import { UsageError, type CliIo } from './io.js'
import { formatBytes } from './output/index.js'
import { describeStorage, openStorage, resolveStorage, storageOptionTable } from './storage-options.js'

/**
 * Help text of `botshelf import`.
 *
 * @example
 * ```ts
 * process.stdout.write(importHelp)
 * ```
 */
export const importHelp = `Usage: botshelf import --from DIR [--data DIR] [--database URL] [--blobs URL]

Writes an archive made by "botshelf export" into an empty dataset: a new embedded data folder (--data,
default ./.botshelf), or PostgreSQL (--database URL or BOTSHELF_DATABASE_URL, migrated first) with content in
S3 (--blobs s3://bucket/prefix or BOTSHELF_BLOBS_URL) or in the data folder. Then "botshelf serve" on the
target answers as the source did: same tokens, bots, file ids and URLs, table ids and row ids.

Checks everything: every part of the archive against the manifest's sha256 first, every content blob's sha256
and size while it is copied. All or nothing: the records, tables and rows are written in one transaction, and on
any mismatch, error or Ctrl-C it is rolled back and the content already copied is deleted: the target stays
empty. A damaged archive is refused with a message naming the part or blob at fault.

The target must be empty (never started by "botshelf serve"): an import does not merge datasets. To replace a
dataset, import into a new folder or database and point the servers there.

Options:
  --from <dir>     the archive folder
  --data <dir>     data folder (default ./.botshelf)
  --database <url> PostgreSQL target (else BOTSHELF_DATABASE_URL)
  --blobs <url>    S3 content of a PostgreSQL target (else BOTSHELF_BLOBS_URL)
  -h, --help       show this help

Progress bars on a terminal; otherwise plain lines on standard error.`

/**
 * Runs `botshelf import`: an archive folder into the empty dataset the storage flags name. Returns the exit code.
 *
 * @example
 * ```ts
 * await importCommand(['--from', './backup', '--database', 'postgres://db/botshelf'], { stdout: process.stdout, stderr: process.stderr })
 * ```
 */
export async function importCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(args, { ...storageOptionTable, from: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, 'import')
  if (values.help) {
    io.stdout.write(`${importHelp}\n`)
    return 0
  }
  if (values.from === undefined || values.from === '') throw new UsageError('--from: expected an archive folder made by "botshelf export", received nothing. Run "botshelf import --help" for usage.')
  const storage = resolveStorage(values)
  const backend = await openStorage(storage)
  const progress = cliTransferProgress(io, 'import')
  try {
    io.stderr.write(`import ${values.from} into ${describeStorage(storage)}\n`)
    const { manifest, seconds } = await withInterrupt(io, (signal) => importDataset(backend, values.from!, { progress, signal }))
    const { totals } = manifest
    io.stderr.write(
      `imported ${totals.records} records, ${totals.tables} tables (${totals.rows} rows) and ${totals.blobs} blobs (${formatBytes(totals.blobBytes)}) ` +
        `in ${(seconds.verify + seconds.content + seconds.metadata).toFixed(1)} s; every checksum matched\n`,
    )
    return 0
  } finally {
    progress.stop()
    await backend.close()
  }
}
