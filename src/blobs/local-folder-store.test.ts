import { createHash } from 'node:crypto'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BlobNotFoundError, BlobSizeMismatchError, BlobTooLargeError } from './errors.js'
import { createLocalFolderBlobStore, nodeBlobFileSystem, type BlobFileSystem } from './local-folder-store.js'
import type { BlobStore } from './blob-store.js'

async function* chunks(...parts: string[]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part)
}

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text()
}

describe('local folder blob store', () => {
  let root: string
  let blobs: BlobStore
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'botshelf-blobs-'))
    blobs = createLocalFolderBlobStore({ root })
  })
  afterEach(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('writes a stream, hashes and counts it, and reads it back whole or by range', async () => {
    const written = await blobs.write(chunks('hello ', 'world'), { expectedBytes: 11 })
    expect(written.size).toBe(11)
    expect(written.sha256).toBe(createHash('sha256').update('hello world').digest('hex'))
    expect(written.blobId).toMatch(/^blob_[0-9a-f]{32}$/)
    expect(await text((await blobs.read(written.blobId)).stream)).toBe('hello world')
    expect(await text((await blobs.read(written.blobId, { start: 6, end: 10 })).stream)).toBe('world')
    expect(await blobs.stat(written.blobId)).toEqual({ size: 11 })
    expect(await readdir(join(root, 'tmp'))).toEqual([])
  })

  it('aborts as soon as the stream exceeds the declared size and leaves nothing behind', async () => {
    let pulled = 0
    async function* endless(): AsyncIterable<Uint8Array> {
      for (;;) {
        pulled++
        yield new Uint8Array(4)
      }
    }
    await expect(blobs.write(endless(), { expectedBytes: 10 })).rejects.toBeInstanceOf(BlobTooLargeError)
    expect(pulled).toBe(3)
    expect(await readdir(join(root, 'tmp'))).toEqual([])
    expect(await readdir(join(root, 'blobs'))).toEqual([])
  })

  it('enforces the hard ceiling without a declared size', async () => {
    await expect(blobs.write(chunks('123456'), { maxBytes: 5 })).rejects.toBeInstanceOf(BlobTooLargeError)
    expect(await readdir(join(root, 'blobs'))).toEqual([])
  })

  it('fails a short stream and deletes its temporary file', async () => {
    await expect(blobs.write(chunks('abc'), { expectedBytes: 5 })).rejects.toBeInstanceOf(BlobSizeMismatchError)
    expect(await readdir(join(root, 'tmp'))).toEqual([])
    expect(await readdir(join(root, 'blobs'))).toEqual([])
  })

  it('cleans up when the source stream errors midway', async () => {
    async function* broken(): AsyncIterable<Uint8Array> {
      yield new Uint8Array(3)
      throw new Error('client went away')
    }
    await expect(blobs.write(broken())).rejects.toThrow('client went away')
    expect(await readdir(join(root, 'tmp'))).toEqual([])
    expect(await readdir(join(root, 'blobs'))).toEqual([])
  })

  it('keeps serving an opened blob after it is deleted', async () => {
    const { blobId } = await blobs.write(chunks('still here'))
    const opened = await blobs.read(blobId)
    await blobs.delete(blobId)
    expect(await blobs.stat(blobId)).toBeUndefined()
    expect(await text(opened.stream)).toBe('still here')
    await expect(blobs.read(blobId)).rejects.toBeInstanceOf(BlobNotFoundError)
  })

  it('never turns an id into an arbitrary path', async () => {
    await expect(blobs.read('../../etc/passwd')).rejects.toThrow('not a blob id')
  })

  it('sweeps temporary files and unreferenced blobs, keeping referenced ones', async () => {
    const kept = await blobs.write(chunks('keep'))
    const orphan = await blobs.write(chunks('orphan'))
    await writeFile(join(root, 'tmp', 'blob_leftover.partial'), 'half')
    const report = await blobs.sweep((id) => id === kept.blobId)
    expect(report).toEqual({ temporaryFiles: 1, orphans: 1 })
    expect(await blobs.stat(kept.blobId)).toEqual({ size: 4 })
    expect(await blobs.stat(orphan.blobId)).toBeUndefined()
  })

  it('leaves files newer than olderThan alone (uploads that started after the app did)', async () => {
    const before = new Date(Date.now() - 60_000)
    const fresh = await blobs.write(chunks('fresh'))
    await writeFile(join(root, 'tmp', 'blob_inflight.partial'), 'half')
    expect(await blobs.sweep(() => false, { olderThan: before })).toEqual({ temporaryFiles: 0, orphans: 0 })
    expect(await blobs.stat(fresh.blobId)).toEqual({ size: 5 })
  })
})

/** A file system that does the real work and records every call, naming handles by what they were opened on. */
function recordingFileSystem(calls: string[], fail?: { on: string; error: Error }): BlobFileSystem {
  const name = (path: string): string => (path.endsWith('.partial') ? 'temp' : /blob_[0-9a-f]{32}$/.test(path) ? 'blob' : path.endsWith('blobs') ? 'blobs-folder' : path)
  const record = (call: string): void => {
    calls.push(call)
    if (fail && call === fail.on) throw fail.error
  }
  return {
    async open(path, flags) {
      record(`open ${name(path)} ${flags}`)
      const handle = await nodeBlobFileSystem.open(path, flags)
      const label = name(path)
      return {
        async write(buffer, offset, length) {
          record(`write ${label}`)
          return handle.write(buffer, offset, length)
        },
        read: (buffer, offset, length, position) => handle.read(buffer, offset, length, position),
        async sync() {
          record(`fsync ${label}`)
          await handle.sync()
        },
        stat: () => handle.stat(),
        async close() {
          record(`close ${label}`)
          await handle.close()
        },
      }
    },
    async rename(from, to) {
      record(`rename ${name(from)} → ${name(to)}`)
      await nodeBlobFileSystem.rename(from, to)
    },
    async rm(path, options) {
      record(`rm ${name(path)}`)
      await nodeBlobFileSystem.rm(path, options)
    },
    unlink: (path) => nodeBlobFileSystem.unlink(path),
    stat: (path) => nodeBlobFileSystem.stat(path),
    readdir: (path) => nodeBlobFileSystem.readdir(path),
  }
}

describe('local folder blob store: durability order (what a crash test cannot see)', () => {
  let root: string
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'botshelf-blobs-order-'))
  })
  afterEach(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('writes, fsyncs the file, closes it, renames it into place, then fsyncs the folder: in that order', async () => {
    const calls: string[] = []
    const blobs = createLocalFolderBlobStore({ root, fs: recordingFileSystem(calls) })
    await blobs.write(chunks('hello ', 'world'), { expectedBytes: 11 })
    expect(calls).toEqual([
      'open temp wx',
      'write temp',
      'write temp',
      'fsync temp',
      'close temp',
      'rename temp → blob',
      'open blobs-folder r',
      'fsync blobs-folder',
      'close blobs-folder',
    ])
  })

  it('an empty blob is fsynced and renamed the same way', async () => {
    const calls: string[] = []
    const blobs = createLocalFolderBlobStore({ root, fs: recordingFileSystem(calls) })
    await blobs.write(chunks(), { expectedBytes: 0 })
    expect(calls).toEqual(['open temp wx', 'fsync temp', 'close temp', 'rename temp → blob', 'open blobs-folder r', 'fsync blobs-folder', 'close blobs-folder'])
  })

  it('a failing fsync of the file stores nothing: no rename, the temporary file removed, the error passed on', async () => {
    const calls: string[] = []
    const eio = Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' })
    const blobs = createLocalFolderBlobStore({ root, fs: recordingFileSystem(calls, { on: 'fsync temp', error: eio }) })
    await expect(blobs.write(chunks('abc'), { expectedBytes: 3 })).rejects.toBe(eio)
    expect(calls).not.toContain('rename temp → blob')
    expect(calls.slice(-2)).toEqual(['close temp', 'rm temp'])
    expect(await readdir(join(root, 'tmp'))).toEqual([])
    expect(await readdir(join(root, 'blobs'))).toEqual([])
  })
})
