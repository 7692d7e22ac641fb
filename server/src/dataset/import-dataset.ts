import { createReadStream } from 'node:fs'
import { join } from 'node:path'
import type { Backend, BackendPorts } from '../store/backend.js'
import { datasetParts, type DatasetPartName, type DatasetRecord } from '../store/dataset/index.js'
import type { RowSnapshot, TableSnapshot } from '../store/tables/index.js'
import { archivePaths, blobPathOf, checkBlobId, readManifest, type ArchiveManifest, type ArchivePart, type BlobEntry } from './archive-format.js'
import { DatasetArchiveError } from './errors.js'
import { readPart, verifyPart } from './jsonl.js'
import { quietProgress, throwIfAborted, type TransferProgress } from './progress.js'
import { queueCarriedCells } from '../tables/computed/index.js'

/** Records per write. */
const BATCH = 500

/** Options of {@link importDataset}. */
export interface ImportOptions {
  progress?: TransferProgress
  /** Aborted by Ctrl-C: the import stops and the target stays as it was. */
  signal?: AbortSignal
}

/** What {@link importDataset} wrote. */
export interface ImportResult {
  manifest: ArchiveManifest
  seconds: { verify: number; content: number; metadata: number }
}

/**
 * Imports an archive folder (made by `exportDataset`) into an empty backend. First every data part is read and
 * checked against the manifest (sha256, size, record count), then each content blob is copied into the target's
 * blob store and checked (sha256, size) as it streams, then every record, table and row is written in one
 * transaction. Any mismatch, error or abort rolls the transaction back and deletes the blobs it wrote: the target
 * is left as it was. Throws `DatasetArchiveError` naming the part or blob at fault, or `TARGET_NOT_EMPTY`.
 *
 * @example
 * ```ts
 * const { manifest } = await importDataset(backend, './backup')
 * ```
 */
export async function importDataset(backend: Backend, from: string, options: ImportOptions = {}): Promise<ImportResult> {
  const progress = options.progress ?? quietProgress
  const manifest = await readManifest(from)
  if (!(await backend.dataset.isEmpty())) {
    throw new DatasetArchiveError('TARGET_NOT_EMPTY', 'the target dataset is not empty: import into a new data folder or an empty database (never started by "botshelf serve")')
  }
  const started = performance.now()
  const verify = progress.start('verify', manifest.parts.reduce((sum, part) => sum + part.bytes, 0))
  for (const part of manifest.parts) {
    throwIfAborted(options.signal)
    await verifyPart(from, part)
    verify.advance(part.bytes)
  }
  verify.done(`${manifest.parts.length} parts match the manifest`)
  const verifySeconds = (performance.now() - started) / 1000

  const written = new Map<string, string>()
  try {
    const contentStarted = performance.now()
    await importBlobs(backend, from, manifest, written, progress, options.signal)
    const contentSeconds = (performance.now() - contentStarted) / 1000
    const metadataStarted = performance.now()
    await backend.transaction((tx) => importMetadata(tx, from, manifest, written, progress, options.signal))
    return { manifest, seconds: { verify: verifySeconds, content: contentSeconds, metadata: (performance.now() - metadataStarted) / 1000 } }
  } catch (error) {
    // Nothing references the blobs written: take them back (a sweep would find them too).
    for (const blobId of written.values()) await backend.blobs.delete(blobId).catch(() => undefined)
    // A stream cut by the signal throws its own AbortError: the reason is the interrupt.
    throw options.signal?.aborted ? options.signal.reason : error
  }
}

function partOf(manifest: ArchiveManifest, path: string): ArchivePart {
  const part = manifest.parts.find((entry) => entry.path === path)
  if (!part) throw new DatasetArchiveError('ARCHIVE_INVALID', `${archivePaths.manifest}: parts: ${path} is missing`)
  return part
}

async function importBlobs(
  backend: Backend,
  from: string,
  manifest: ArchiveManifest,
  written: Map<string, string>,
  progress: TransferProgress,
  signal: AbortSignal | undefined,
): Promise<void> {
  const bar = progress.start('content', manifest.totals.blobBytes)
  for await (const line of readPart(from, partOf(manifest, archivePaths.blobList))) {
    throwIfAborted(signal)
    const entry = line as BlobEntry
    const blobId = checkBlobId(entry.blobId)
    const path = blobPathOf(manifest, entry)
    const source = createReadStream(join(from, path), signal ? { signal } : {})
    const counted = (async function* () {
      try {
        for await (const chunk of source as AsyncIterable<Buffer>) {
          bar.advance(chunk.length)
          yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new DatasetArchiveError('ARCHIVE_CORRUPT', `${path}: missing from the ${manifest.contentFolder ? 'backup folder' : 'archive'}`)
        throw error
      }
    })()
    const blob = await backend.blobs.write(counted)
    written.set(blobId, blob.blobId)
    if (blob.sha256 !== entry.sha256 || blob.size !== entry.size) {
      throw new DatasetArchiveError(
        'ARCHIVE_CORRUPT',
        `${path}: does not match the manifest (sha256 expected ${entry.sha256}, computed ${blob.sha256}; ${entry.size} bytes expected, ${blob.size} read): the archive is damaged, nothing was imported`,
      )
    }
  }
  bar.done(`${written.size} blobs`)
}

async function importMetadata(
  tx: BackendPorts,
  from: string,
  manifest: ArchiveManifest,
  blobIds: ReadonlyMap<string, string>,
  progress: TransferProgress,
  signal: AbortSignal | undefined,
): Promise<void> {
  const bar = progress.start('metadata', manifest.totals.records + manifest.totals.rows)
  for (const spec of datasetParts) {
    let batch: DatasetRecord[] = []
    const flush = async (): Promise<void> => {
      throwIfAborted(signal)
      await tx.dataset.writeRecords(spec.name as DatasetPartName, batch)
      bar.advance(batch.length)
      batch = []
    }
    for await (const line of readPart(from, partOf(manifest, archivePaths.part(spec.name)))) {
      const record = line as DatasetRecord
      if (spec.name === 'files' && typeof record['blob_id'] === 'string') {
        const blobId = blobIds.get(record['blob_id'])
        if (blobId === undefined) throw new DatasetArchiveError('ARCHIVE_CORRUPT', `${archivePaths.part('files')}: file ${String(record['id'])} names blob ${record['blob_id']}, which ${archivePaths.blobList} does not list`)
        record['blob_id'] = blobId
      }
      batch.push(record)
      if (batch.length >= BATCH) await flush()
    }
    if (batch.length > 0) await flush()
  }
  for await (const line of readPart(from, partOf(manifest, archivePaths.tables))) {
    const snapshot = line as TableSnapshot
    await tx.tables.restoreTable(snapshot.botId, snapshot)
    let batch: RowSnapshot[] = []
    let index = 0
    const table = await tx.tables.loadTable(snapshot.botId, snapshot.id)
    const flush = async (): Promise<void> => {
      throwIfAborted(signal)
      await tx.tables.restoreRows(snapshot.botId, snapshot.id, batch, index)
      // Computed columns: cells kept as the archive carried them, the others queued (decision 1425).
      await queueCarriedCells(tx, table, batch.map((row) => ({ id: row.id, computed: row['computed'] })))
      bar.advance(batch.length)
      index += batch.length
      batch = []
    }
    for await (const row of readPart(from, partOf(manifest, archivePaths.rows(snapshot.id)))) {
      batch.push(row as RowSnapshot)
      if (batch.length >= BATCH) await flush()
    }
    if (batch.length > 0) await flush()
  }
  bar.done(`${manifest.totals.records} records, ${manifest.totals.tables} tables, ${manifest.totals.rows} rows`)
}
