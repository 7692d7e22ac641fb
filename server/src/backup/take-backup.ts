import { createHash, randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { BlobNotFoundError, type BlobStore } from '../blobs/index.js'
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, archivePaths, BACKUP_CONTENT_FOLDER, type ArchiveManifest, type BlobEntry } from '../dataset/archive-format.js'
import { DatasetArchiveError } from '../dataset/errors.js'
import { exportMetadata, type MetadataResult } from '../dataset/export-dataset.js'
import { JsonlWriter } from '../dataset/jsonl.js'
import { quietProgress, throwIfAborted, type TransferProgress } from '../dataset/progress.js'
import type { Backend } from '../store/backend.js'
import { backupPaths, snapshotName } from './backup-folder.js'

/**
 * Where a backup reads from: a consistent view of the metadata, opened once per attempt, and the live content.
 *
 * @example
 * ```ts
 * const source: BackupSource = { describe: 'postgres://db/botshelf', blobs: backend.blobs, openSnapshot: async () => ({ backend, release: async () => {} }) }
 * ```
 */
export interface BackupSource {
  /** What the manifest says the source was. @example `'data folder ./.botshelf'` */
  readonly describe: string
  /** The live content store the snapshot's files name. @example `backend.blobs` */
  readonly blobs: BlobStore
  /**
   * One consistent view of the metadata: `backend.transaction` must read it as of one moment (SQLite: a copy made
   * by the online backup; PostgreSQL: the live database, whose transactions read one snapshot). `workDir` is an
   * empty folder the view may use until `release`.
   *
   * @example
   * ```ts
   * openSnapshot: async (workDir) => { const backend = await openSqliteSnapshot('./.botshelf', workDir); return { backend, release: () => backend.close() } }
   * ```
   */
  openSnapshot(workDir: string): Promise<{ backend: Backend; release(): Promise<void> }>
}

/** Options of {@link takeBackup}. */
export interface BackupOptions {
  /** Where progress goes (default: nowhere). @example `{ progress: cliTransferProgress(io, 'backup') }` */
  progress?: TransferProgress
  /** Aborted by Ctrl-C: nothing of this snapshot stays (content already copied does, and is reused). @example `{ signal: controller.signal }` */
  signal?: AbortSignal
  /** The clock that names the snapshot (default: the wall clock). @example `{ now: () => new Date('2026-11-28T02:00:00Z') }` */
  now?: () => Date
  /** Attempts when content named by a snapshot is deleted before it is copied (default 3). @example `{ attempts: 5 }` */
  attempts?: number
}

/** What {@link takeBackup} did. */
export interface BackupResult {
  /** The snapshot's folder (`<out>/snapshots/<name>`). */
  snapshot: string
  manifest: ArchiveManifest
  /** Content blobs copied now (new since the folder's earlier snapshots), and their bytes. */
  copied: { blobs: number; bytes: number }
  /** Content blobs the folder held already (same sha256 and size). */
  reused: number
  /** Snapshots taken before this one succeeded (content deleted by the service while it was being copied). */
  retries: number
}

/** A blob a snapshot named was gone when copied: the service deleted or replaced it after the snapshot. */
class ContentGone extends Error {}

/**
 * Takes a backup into the folder `out` (created when missing) while the service keeps serving: a consistent
 * snapshot of the metadata (every part, table and row, written as the export archive's `parts/`), then the content
 * of every file by sha256 into `out/content/`, copying only what the folder does not hold yet and checking each
 * copy's sha256 and size against its file. The snapshot is written beside and renamed into `out/snapshots/` when
 * complete, with everything fsynced: a failure or an abort leaves the earlier snapshots as they were. When the
 * service deletes content the snapshot names before it is copied, a new snapshot is taken (`attempts`).
 *
 * @example
 * ```ts
 * const { snapshot, copied, reused } = await takeBackup(source, './backups')
 * ```
 */
export async function takeBackup(source: BackupSource, out: string, options: BackupOptions = {}): Promise<BackupResult> {
  const progress = options.progress ?? quietProgress
  const paths = backupPaths(out)
  await mkdir(paths.content, { recursive: true })
  await mkdir(paths.snapshots, { recursive: true })
  const attempts = options.attempts ?? 3
  for (let attempt = 1; ; attempt++) {
    const work = join(out, `.partial-${process.pid}-${randomUUID()}`)
    try {
      const taken = await snapshotOnce(source, out, work, progress, options)
      return { ...taken, retries: attempt - 1 }
    } catch (error) {
      await rm(work, { recursive: true, force: true })
      if (options.signal?.aborted) throw options.signal.reason
      if (!(error instanceof ContentGone) || attempt >= attempts) {
        if (error instanceof ContentGone) {
          throw new DatasetArchiveError('SOURCE_CORRUPT', `${error.message}, in ${attempts} snapshots in a row: the service deletes content faster than it can be copied; try again later`)
        }
        throw error
      }
    }
  }
}

async function snapshotOnce(
  source: BackupSource,
  out: string,
  work: string,
  progress: TransferProgress,
  options: BackupOptions,
): Promise<Omit<BackupResult, 'retries'>> {
  const paths = backupPaths(out)
  const createdAt = (options.now ?? (() => new Date()))()
  await mkdir(join(work, 'parts', 'rows'), { recursive: true })
  await mkdir(join(work, 'view'))
  const view = await source.openSnapshot(join(work, 'view'))
  let metadata: MetadataResult
  try {
    metadata = await view.backend.transaction((tx) => exportMetadata(tx, work, progress, options.signal))
  } finally {
    await view.release()
  }
  await rm(join(work, 'view'), { recursive: true, force: true })

  const byHash = new Map<string, { blobId: string; size: number }>()
  for (const [blobId, blob] of metadata.blobs) if (!byHash.has(blob.sha256)) byHash.set(blob.sha256, { blobId, size: blob.size })
  const totalBytes = [...byHash.values()].reduce((sum, blob) => sum + blob.size, 0)
  const bar = progress.start('content', totalBytes)
  const copied = { blobs: 0, bytes: 0 }
  let reused = 0
  for (const [sha256, blob] of byHash) {
    throwIfAborted(options.signal)
    const held = await stat(paths.contentOf(sha256)).catch(() => undefined)
    if (held?.isFile() && held.size === blob.size) {
      reused++
    } else {
      await copyContent(source.blobs, blob.blobId, sha256, blob.size, paths.content, options.signal)
      copied.blobs++
      copied.bytes += blob.size
    }
    bar.advance(blob.size)
  }
  await fsyncFolder(paths.content)
  bar.done(`${copied.blobs} blobs copied, ${reused} already in the folder`)

  const list = new JsonlWriter(join(work, archivePaths.blobList), archivePaths.blobList)
  try {
    for (const [blobId, blob] of metadata.blobs) {
      const entry: BlobEntry = { blobId, size: blob.size, sha256: blob.sha256 }
      await list.write(entry)
    }
  } catch (error) {
    list.destroy()
    throw error
  }
  const blobPart = await list.close()
  const manifest: ArchiveManifest = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    createdAt: createdAt.toISOString(),
    source: source.describe,
    parts: [...metadata.parts, blobPart],
    totals: { records: metadata.records, tables: metadata.tables, rows: metadata.rows, blobs: metadata.blobs.size, blobBytes: [...metadata.blobs.values()].reduce((sum, blob) => sum + blob.size, 0) },
    contentFolder: BACKUP_CONTENT_FOLDER,
  }
  await writeFile(join(work, archivePaths.manifest), `${JSON.stringify(manifest, null, 2)}\n`)
  await fsyncTree(work, [archivePaths.manifest, ...manifest.parts.map((part) => part.path)])
  const snapshot = paths.snapshot(snapshotName(createdAt))
  await rename(work, snapshot)
  await fsyncFolder(paths.snapshots)
  return { snapshot, manifest, copied, reused }
}

async function copyContent(blobs: BlobStore, blobId: string, sha256: string, size: number, contentDir: string, signal: AbortSignal | undefined): Promise<void> {
  let opened
  try {
    opened = await blobs.read(blobId)
  } catch (error) {
    if (error instanceof BlobNotFoundError) throw new ContentGone(`content ${sha256} (blob ${blobId}) was deleted by the service after the snapshot`)
    throw error
  }
  const temp = join(contentDir, `.${sha256}.${randomUUID()}.partial`)
  const hash = createHash('sha256')
  let read = 0
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk)
      read += chunk.length
      callback(null, chunk)
    },
  })
  try {
    await pipeline(Readable.fromWeb(opened.stream as never), counter, createWriteStream(temp, { flags: 'wx' }), signal ? { signal } : {})
    const computed = hash.digest('hex')
    if (computed !== sha256 || read !== size) {
      throw new DatasetArchiveError(
        'SOURCE_CORRUPT',
        `blob ${blobId}: its content does not match its file (sha256 expected ${sha256}, computed ${computed}; ${size} bytes expected, ${read} read): the source dataset is damaged`,
      )
    }
    const handle = await open(temp, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, join(contentDir, sha256))
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

async function fsyncFolder(path: string): Promise<void> {
  const handle = await open(path, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

async function fsyncTree(root: string, files: string[]): Promise<void> {
  const folders = new Set<string>([root])
  for (const file of files) {
    const handle = await open(join(root, file), 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
    folders.add(join(root, file, '..'))
  }
  for (const folder of folders) await fsyncFolder(folder)
}
