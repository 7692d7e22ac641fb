import { open, opendir, rename, rm, stat, unlink } from 'node:fs/promises'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { join } from 'node:path'
import type { BlobsReferenced, BlobStore, BlobWriteOptions, ByteRange, OpenedBlob, SweepReport, WrittenBlob } from './blob-store.js'
import { BlobError, BlobNotFoundError, BlobSizeMismatchError, BlobTooLargeError } from './errors.js'
import { GroupFsync, makePrivateFolder, pooledRandomBytes, PRIVATE_FILE_MODE } from '../platform/index.js'
import { OverlappedWriter } from './overlapped-writer.js'
import { TRAILING_HASH_BYTES, TrailingHash } from './trailing-hash.js'

/** Default ceiling of one blob: 1 GB (docs/wire-format.md §5). */
export const DEFAULT_MAX_BLOB_BYTES = 1024 * 1024 * 1024

const BLOB_ID = /^blob_[0-9a-f]{32}$/
const TEMP_SUFFIX = '.partial'
const READ_CHUNK_BYTES = 256 * 1024
/**
 * Names the start's sweep asks the database about in one query, and between two turns of the event loop: on the
 * embedded database the query runs on the loop (~2 µs a name), so a folder of a million blobs holds it for under a
 * millisecond at a time.
 */
export const SWEEP_NAMES_PER_TURN = 256

/**
 * An open file, as the local-folder store uses it: the subset of node's `FileHandle` it calls.
 *
 * @example
 * ```ts
 * const handle: BlobFileHandle = await nodeBlobFileSystem.open('/tmp/x', 'r')
 * await handle.close()
 * ```
 */
export interface BlobFileHandle {
  write(buffer: Uint8Array, offset: number, length: number): Promise<{ bytesWritten: number }>
  /** Optional: writes several buffers in one call (`writev`) at the current position; may write fewer bytes. */
  writev?(buffers: Uint8Array[]): Promise<{ bytesWritten: number }>
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>
  /** Flushes the file's data and metadata to the disk (`fsync`). */
  sync(): Promise<void>
  stat(): Promise<{ size: number }>
  close(): Promise<void>
}

/**
 * The file-system calls of the local-folder store, so a test can watch them (the order of write, rename, the file's
 * and the folder's fsyncs and close, which no crash test can see: the page cache survives a killed process) or make
 * one fail. The default is {@link nodeBlobFileSystem}.
 *
 * @example
 * ```ts
 * const calls: string[] = []
 * const fs: BlobFileSystem = { ...nodeBlobFileSystem, rename: async (from, to) => { calls.push('rename'); await nodeBlobFileSystem.rename(from, to) } }
 * createLocalFolderBlobStore({ root: './content', fs })
 * ```
 */
export interface BlobFileSystem {
  /** Opens a file (`'wx'`: create, failing if it exists; `'r'`: read, also used on a folder to fsync it). */
  open(path: string, flags: 'wx' | 'r'): Promise<BlobFileHandle>
  rename(from: string, to: string): Promise<void>
  rm(path: string, options: { force: true }): Promise<void>
  unlink(path: string): Promise<void>
  stat(path: string): Promise<{ size: number; mtimeMs: number }>
  /** The names in a folder, read a batch at a time (a folder may hold millions of blobs). */
  names(path: string): AsyncIterable<string>
}

/**
 * {@link BlobFileSystem} on `node:fs/promises`: what the store uses unless told otherwise.
 *
 * @example
 * ```ts
 * createLocalFolderBlobStore({ root: './content', fs: nodeBlobFileSystem }) // the same as leaving fs out
 * ```
 */
export const nodeBlobFileSystem: BlobFileSystem = {
  // Blob files are private to the service's user (decision 1461); the mode only matters when `wx` creates one.
  open: (path, flags) => open(path, flags, PRIVATE_FILE_MODE),
  rename: (from, to) => rename(from, to),
  rm: (path, options) => rm(path, options),
  unlink: (path) => unlink(path),
  stat: (path) => stat(path),
  names: (path) => namesIn(path),
}

async function* namesIn(path: string): AsyncGenerator<string> {
  for await (const entry of await opendir(path, { bufferSize: 256 })) yield entry.name
}

/** Options of {@link createLocalFolderBlobStore}. */
export interface LocalFolderBlobStoreOptions {
  /**
   * Folder that holds the content. Created if missing. `blobs/` holds finished blobs, `tmp/` uploads in progress
   * (same file system, so the final rename is atomic).
   *
   * @example
   * ```ts
   * createLocalFolderBlobStore({ root: './.botshelf/content' })
   * ```
   */
  root: string
  /**
   * The file-system calls to make (default {@link nodeBlobFileSystem}); tests pass a spy to check the durability
   * order of a write: write → rename → fsync(file) and fsync(folder) at once → close (decision 1213).
   *
   * @example
   * ```ts
   * const renames: string[] = []
   * const fs: BlobFileSystem = { ...nodeBlobFileSystem, rename: (from, to) => (renames.push(to), nodeBlobFileSystem.rename(from, to)) }
   * createLocalFolderBlobStore({ root: './content', fs })
   * ```
   */
  fs?: BlobFileSystem
}

function newBlobId(): string {
  return `blob_${pooledRandomBytes(16).toString('hex')}`
}

async function fsyncDirectory(fs: BlobFileSystem, path: string): Promise<void> {
  const handle = await fs.open(path, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

function streamFromHandle(handle: BlobFileHandle, start: number, endInclusive: number): ReadableStream<Uint8Array> {
  let position = start
  let closed = false
  const close = async (): Promise<void> => {
    if (closed) return
    closed = true
    await handle.close()
  }
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const remaining = endInclusive - position + 1
        if (remaining <= 0) {
          await close()
          controller.close()
          return
        }
        const buffer = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, remaining))
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, position)
        if (bytesRead === 0) {
          await close()
          controller.close()
          return
        }
        position += bytesRead
        controller.enqueue(new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead))
      } catch (error) {
        await close().catch(() => undefined)
        controller.error(error)
      }
    },
    async cancel() {
      await close()
    },
  })
}

/**
 * The local-folder adapter of the {@link BlobStore} port. Writes go to a temporary file in the same folder
 * tree, are hashed and counted while streaming, renamed into place, then the file and the directory are fsynced
 * at once (decision 1213); `write` resolves only after both, so no row can name a blob before it is on the disk.
 * A crash leaves whole blobs, temporary files, or a blob no row names: {@link BlobStore.sweep} removes the last two.
 * Blob names are random ids; a user's key never becomes a path.
 *
 * @example
 * ```ts
 * const blobs = createLocalFolderBlobStore({ root: '/var/lib/botshelf/content' })
 * const written = await blobs.write(request.body!, { expectedBytes: Number(request.headers.get('content-length')) })
 * ```
 */
export function createLocalFolderBlobStore(options: LocalFolderBlobStoreOptions): BlobStore {
  const fs = options.fs ?? nodeBlobFileSystem
  const blobsDir = join(options.root, 'blobs')
  const tmpDir = join(options.root, 'tmp')
  makePrivateFolder(blobsDir)
  makePrivateFolder(tmpDir)
  // Renames done while the folder's fsync runs share the next one (decision 1210); the folder stays open while
  // fsyncs follow each other (decision 1215).
  const blobsDirSync = new GroupFsync(blobsDir, { open: (path) => fs.open(path, 'r') })

  const pathOf = (blobId: string): string => {
    if (!BLOB_ID.test(blobId)) throw new BlobError('BLOB_BAD_ID', `not a blob id: ${JSON.stringify(blobId)}`)
    return join(blobsDir, blobId)
  }

  // The blobs this store writes while a sweep runs. The sweep never takes them for leftovers, whatever their mtime
  // says: a file system stamps files from a coarse clock (Linux: the last timer tick; 19,922 files of 20,000 written
  // here just after a `Date.now()` read an earlier mtime, by up to 6.2 ms), so the first upload after a start could
  // look older than the start and lose its blob, renamed into place but not yet committed, to the start's sweep.
  const writtenDuringSweep = new Set<string>()
  let sweepsRunning = 0

  async function write(source: AsyncIterable<Uint8Array>, writeOptions: BlobWriteOptions = {}): Promise<WrittenBlob> {
    const hardLimit = writeOptions.maxBytes ?? DEFAULT_MAX_BLOB_BYTES
    const limit = writeOptions.expectedBytes !== undefined ? Math.min(writeOptions.expectedBytes, hardLimit) : hardLimit
    const blobId = newBlobId()
    if (sweepsRunning > 0) writtenDuringSweep.add(blobId)
    const tempPath = join(tmpDir, `${blobId}${TEMP_SUFFIX}`)
    const finalPath = join(blobsDir, blobId)
    let renamed = false
    // The last megabyte is hashed while the fsync runs (decision 1232).
    const hash = new TrailingHash(TRAILING_HASH_BYTES, writeOptions.expectedBytes)
    let size = 0
    // Opened while the first chunks arrive: they wait in the writer's queue until the file is open (decision 1232).
    const opening = fs.open(tempPath, 'wx')
    // A failed open is thrown by the writer or awaited below; never an unhandled rejection meanwhile.
    opening.catch(() => undefined)
    let handle: BlobFileHandle | undefined
    const writer = new OverlappedWriter(opening)
    try {
      for await (const chunk of source) {
        size += chunk.byteLength
        if (size > limit) throw new BlobTooLargeError(limit)
        // The chunk goes to the disk (libuv's threads) while this thread reads the next one.
        const backlog = writer.push(chunk)
        hash.update(chunk)
        if (backlog) await backlog
      }
      await writer.drain()
      handle = await opening
      if (writeOptions.expectedBytes !== undefined && size !== writeOptions.expectedBytes) {
        throw new BlobSizeMismatchError(writeOptions.expectedBytes, size)
      }
      // Into place first, then the file's fsync and the folder's at once (decision 1213): both are done before this
      // returns, hence before any row can name the blob; a crash before then leaves an orphan the start sweep removes.
      await fs.rename(tempPath, finalPath)
      renamed = true
      const syncs = Promise.allSettled([handle.sync(), blobsDirSync.durable()])
      // The bytes not hashed yet are hashed while the disk flushes (decision 1232).
      const sha256 = hash.digestHex()
      const [fileSync, folderSync] = await syncs
      if (fileSync.status === 'rejected') throw fileSync.reason
      if (folderSync.status === 'rejected') throw folderSync.reason
      const closing = handle.close()
      handle = undefined
      await closing
      return { blobId, size, sha256 }
    } catch (error) {
      await writer.settle()
      handle ??= await opening.catch(() => undefined)
      if (handle) await handle.close().catch(() => undefined)
      await fs.rm(renamed ? finalPath : tempPath, { force: true })
      throw error
    }
  }

  async function read(blobId: string, range?: ByteRange): Promise<OpenedBlob> {
    let handle: BlobFileHandle
    try {
      handle = await fs.open(pathOf(blobId), 'r')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(blobId)
      throw error
    }
    const { size } = await handle.stat()
    const start = range?.start ?? 0
    const end = range?.end ?? size - 1
    if (start < 0 || start > end + 1 || end >= size) {
      await handle.close()
      throw new BlobError('BLOB_RANGE', `range ${start}-${end} is outside a blob of ${size} bytes`)
    }
    return { size, stream: streamFromHandle(handle, start, end) }
  }

  async function statBlob(blobId: string): Promise<{ size: number } | undefined> {
    try {
      const info = await fs.stat(pathOf(blobId))
      return { size: info.size }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw error
    }
  }

  async function deleteBlob(blobId: string): Promise<void> {
    await fs.rm(pathOf(blobId), { force: true })
  }

  async function isOld(path: string, olderThan: Date | undefined): Promise<boolean> {
    if (!olderThan) return true
    const info = await fs.stat(path).catch(() => undefined)
    return info !== undefined && info.mtimeMs < olderThan.getTime()
  }

  // Run at every start beside the first requests: it streams the folder and asks about its blobs a batch of
  // SWEEP_NAMES_PER_TURN names at a time, handing the event loop back between batches, so a folder of a million blobs
  // delays no answer (it held the loop ~3 ms per thousand blobs when it read the whole folder and asked about each).
  async function sweep(referenced: BlobsReferenced, sweepOptions: { olderThan?: Date } = {}): Promise<SweepReport> {
    sweepsRunning++
    try {
      return await sweepFolders(referenced, sweepOptions)
    } finally {
      if (--sweepsRunning === 0) writtenDuringSweep.clear()
    }
  }

  async function sweepFolders(referenced: BlobsReferenced, sweepOptions: { olderThan?: Date }): Promise<SweepReport> {
    let temporaryFiles = 0
    let orphans = 0
    let batch: string[] = []
    const removeUnreferenced = async (names: string[]): Promise<void> => {
      const kept = await referenced(names.filter((name) => BLOB_ID.test(name)))
      for (const name of names) {
        if (kept.has(name) || writtenDuringSweep.has(name)) continue
        const path = join(blobsDir, name)
        if (!(await isOld(path, sweepOptions.olderThan))) continue
        await fs.unlink(path).catch(() => undefined)
        orphans++
      }
    }
    let sinceTurn = 0
    for await (const name of fs.names(tmpDir)) {
      if (++sinceTurn >= SWEEP_NAMES_PER_TURN) {
        sinceTurn = 0
        await nextTurn()
      }
      if (writtenDuringSweep.has(name.slice(0, -TEMP_SUFFIX.length))) continue
      const path = join(tmpDir, name)
      if (!(await isOld(path, sweepOptions.olderThan))) continue
      await fs.unlink(path).catch(() => undefined)
      temporaryFiles++
    }
    for await (const name of fs.names(blobsDir)) {
      batch.push(name)
      if (batch.length < SWEEP_NAMES_PER_TURN) continue
      await removeUnreferenced(batch)
      batch = []
      await nextTurn()
    }
    if (batch.length > 0) await removeUnreferenced(batch)
    if (orphans > 0) await fsyncDirectory(fs, blobsDir)
    return { temporaryFiles, orphans }
  }

  return { write, read, stat: statBlob, delete: deleteBlob, sweep }
}
