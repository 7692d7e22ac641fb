import { createHash } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { readdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { Readable, Transform } from 'node:stream'
import type { Backend, BackendPorts } from '../store/backend.js'
import { datasetParts, positionAfter } from '../store/dataset/index.js'
import { tableSnapshotOf } from '../store/tables/index.js'
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, archivePaths, type ArchiveManifest, type ArchivePart, type BlobEntry } from './archive-format.js'
import { makePrivateFolder, PRIVATE_FILE_MODE } from '../platform/index.js'
import { DatasetArchiveError } from './errors.js'
import { JsonlWriter } from './jsonl.js'
import { quietProgress, throwIfAborted, type TransferProgress } from './progress.js'
import { computedColumnsOf, withComputedState } from '../tables/computed/index.js'

/** Records per page read from the source. */
const PAGE = 1000

/** Options of {@link exportDataset}. */
export interface ExportOptions {
  /** Where progress goes (default: nowhere). */
  progress?: TransferProgress
  /** Aborted by Ctrl-C: the export stops and leaves nothing at `out`. */
  signal?: AbortSignal
  /** What the manifest says the source was (default: the backend's kind). */
  source?: string
}

/** What {@link exportDataset} wrote. */
export interface ExportResult {
  manifest: ArchiveManifest
  /** Seconds spent on metadata and on content. */
  seconds: { metadata: number; content: number }
}

/**
 * Exports a whole dataset into an archive folder `out` (created; it must not exist or be empty): every shared part
 * (workspace, bots, token hashes, the signing key, files, tags, knowledge bases, passages with their vectors, table
 * jobs, queued jobs but completed ones), every user table with its rows (ids and times kept), and every content
 * blob once, checked against its file's sha256 while copied. The metadata is read in one transaction (one
 * snapshot); content after it. Written beside `out` and renamed at the end: a failure or an abort leaves nothing.
 *
 * @example
 * ```ts
 * const { manifest } = await exportDataset(backend, './backup')
 * console.log(manifest.totals) // { records, tables, rows, blobs, blobBytes }
 * ```
 */
export async function exportDataset(backend: Backend, out: string, options: ExportOptions = {}): Promise<ExportResult> {
  const progress = options.progress ?? quietProgress
  await checkDestination(out)
  const work = join(dirname(out), `.${basename(out)}.partial-${process.pid}-${Date.now()}`)
  // The archive holds the signing key and every file's content: private to its owner (decision 1461).
  makePrivateFolder(join(work, 'parts', 'rows'))
  makePrivateFolder(join(work, 'blobs'))
  try {
    const started = performance.now()
    const { parts, blobs, tables, rows, records } = await backend.transaction((tx) => exportMetadata(tx, work, progress, options.signal))
    const metadataSeconds = (performance.now() - started) / 1000
    const contentStarted = performance.now()
    const blobPart = await exportBlobs(backend, work, blobs, progress, options.signal)
    const manifest: ArchiveManifest = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      createdAt: new Date().toISOString(),
      source: options.source ?? backend.kind,
      parts: [...parts, blobPart],
      totals: { records, tables, rows, blobs: blobs.size, blobBytes: [...blobs.values()].reduce((sum, blob) => sum + blob.size, 0) },
    }
    await writeFile(join(work, archivePaths.manifest), `${JSON.stringify(manifest, null, 2)}\n`, { mode: PRIVATE_FILE_MODE })
    await rm(out, { recursive: true, force: true })
    await rename(work, out)
    return { manifest, seconds: { metadata: metadataSeconds, content: (performance.now() - contentStarted) / 1000 } }
  } catch (error) {
    await rm(work, { recursive: true, force: true })
    // A stream cut by the signal throws its own AbortError: the reason is the interrupt.
    throw options.signal?.aborted ? options.signal.reason : error
  }
}

async function checkDestination(out: string): Promise<void> {
  const found = await stat(out).catch(() => undefined)
  if (!found) return
  if (!found.isDirectory() || (await readdir(out)).length > 0) {
    throw new DatasetArchiveError('DESTINATION_EXISTS', `--out ${out}: expected a new or empty folder, received an existing ${found.isDirectory() ? 'folder that is not empty' : 'file'}`)
  }
}

/**
 * What {@link exportMetadata} wrote: the data parts, every blob the files name (by blob id, with its size and
 * sha256), and the counts.
 *
 * @example
 * ```ts
 * const { parts, blobs } = await backend.transaction((tx) => exportMetadata(tx, work, quietProgress, undefined))
 * ```
 */
export interface MetadataResult {
  parts: ArchivePart[]
  blobs: Map<string, { size: number; sha256: string }>
  tables: number
  rows: number
  records: number
}

/**
 * Writes every dataset part, table and row of one transaction's view into `work/parts/` (the archive layout) and
 * returns the blobs the files name. Shared by `exportDataset` and `takeBackup`; run it inside `backend.transaction`
 * so everything comes from one snapshot.
 *
 * @example
 * ```ts
 * const result = await backend.transaction((tx) => exportMetadata(tx, './work', quietProgress, signal))
 * ```
 */
export async function exportMetadata(tx: BackendPorts, work: string, progress: TransferProgress, signal: AbortSignal | undefined): Promise<MetadataResult> {
  const bots = await tx.auth.listBots()
  const tableIds: Array<{ botId: string; id: string; rows: number }> = []
  for (const bot of bots) {
    let after
    do {
      const page = await tx.tables.listTables(bot.id, { pageSize: 100, ...(after ? { after } : {}) })
      for (const table of page.tables) tableIds.push({ botId: bot.id, id: table.id, rows: (await tx.tables.getTable(bot.id, table.id)).rows })
      after = page.next
    } while (after)
  }
  let total = tableIds.reduce((sum, table) => sum + table.rows, 0)
  for (const part of datasetParts) total += await tx.dataset.count(part.name)
  const bar = progress.start('metadata', total)
  const parts: ArchivePart[] = []
  const blobs = new Map<string, { size: number; sha256: string }>()
  let records = 0
  for (const spec of datasetParts) {
    const writer = new JsonlWriter(join(work, archivePaths.part(spec.name)), archivePaths.part(spec.name))
    try {
      let after: Array<string | number> | undefined
      for (;;) {
        throwIfAborted(signal)
        const { records: page } = await tx.dataset.readPage(spec.name, { limit: PAGE, ...(after ? { after } : {}) })
        for (const record of page) {
          // A finished job is history only the source needs; pending, running and dead ones travel.
          if (spec.name === 'jobs' && record['state'] === 'completed') continue
          if (spec.name === 'files' && typeof record['blob_id'] === 'string') {
            blobs.set(record['blob_id'], { size: Number(record['size']), sha256: String(record['sha256']) })
          }
          await writer.write(record)
        }
        bar.advance(page.length)
        if (page.length < PAGE) break
        after = positionAfter(spec, page.at(-1)!)
      }
      const part = await writer.close()
      records += part.records
      parts.push(part)
    } catch (error) {
      writer.destroy()
      throw error
    }
  }
  const tablesWriter = new JsonlWriter(join(work, archivePaths.tables), archivePaths.tables)
  let rows = 0
  try {
    for (const table of tableIds) {
      const record = await tx.tables.loadTable(table.botId, table.id)
      await tablesWriter.write(tableSnapshotOf(record))
      const computes = computedColumnsOf(record.schema).length > 0
      const rowsWriter = new JsonlWriter(join(work, archivePaths.rows(table.id)), archivePaths.rows(table.id))
      try {
        let last = 0
        for (;;) {
          throwIfAborted(signal)
          const found = await tx.tables.findRows(table.botId, table.id, { filter: { id: { $gt: last } }, orderBy: 'id', orderDirection: 'asc', limit: PAGE })
          // Computed cells travel with their rows (statuses, errors), read back by `botshelf import` (decision 1425).
          for (const row of await withComputedState(tx.computed, table.id, computes, found.rows)) {
            const { computed, stale: _stale, ...stored } = row
            await rowsWriter.write(computes ? { ...stored, computed } : stored)
          }
          bar.advance(found.rows.length)
          if (found.rows.length < PAGE) break
          last = found.rows.at(-1)!.id
        }
        const part = await rowsWriter.close()
        rows += part.records
        parts.push(part)
      } catch (error) {
        rowsWriter.destroy()
        throw error
      }
    }
    parts.push(await tablesWriter.close())
  } catch (error) {
    tablesWriter.destroy()
    throw error
  }
  bar.done(`${records} records, ${tableIds.length} tables, ${rows} rows`)
  return { parts, blobs, tables: tableIds.length, rows, records }
}

async function exportBlobs(
  backend: Backend,
  work: string,
  blobs: Map<string, { size: number; sha256: string }>,
  progress: TransferProgress,
  signal: AbortSignal | undefined,
): Promise<ArchivePart> {
  const bar = progress.start('content', [...blobs.values()].reduce((sum, blob) => sum + blob.size, 0))
  const list = new JsonlWriter(join(work, archivePaths.blobList), archivePaths.blobList)
  try {
    for (const [blobId, expected] of blobs) {
      throwIfAborted(signal)
      const opened = await backend.blobs.read(blobId)
      const hash = createHash('sha256')
      let size = 0
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          hash.update(chunk)
          size += chunk.length
          bar.advance(chunk.length)
          callback(null, chunk)
        },
      })
      await pipeline(Readable.fromWeb(opened.stream as never), counter, createWriteStream(join(work, archivePaths.blob(blobId)), { flags: 'wx', mode: PRIVATE_FILE_MODE }), signal ? { signal } : {})
      const sha256 = hash.digest('hex')
      if (sha256 !== expected.sha256 || size !== expected.size) {
        throw new DatasetArchiveError(
          'SOURCE_CORRUPT',
          `blob ${blobId}: its content does not match its file (sha256 expected ${expected.sha256}, computed ${sha256}; ${expected.size} bytes expected, ${size} read): the source dataset is damaged`,
        )
      }
      const entry: BlobEntry = { blobId, size, sha256 }
      await list.write(entry)
    }
    bar.done(`${blobs.size} blobs`)
    return await list.close()
  } catch (error) {
    list.destroy()
    throw error
  }
}
