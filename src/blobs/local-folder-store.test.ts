import { createHash } from 'node:crypto'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BlobNotFoundError, BlobSizeMismatchError, BlobTooLargeError } from './errors.js'
import { createLocalFolderBlobStore } from './local-folder-store.js'
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
