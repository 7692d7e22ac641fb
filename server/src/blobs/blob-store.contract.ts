import { createHash, randomBytes } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { BlobStore } from './blob-store.js'
import { BlobError, BlobNotFoundError, BlobSizeMismatchError, BlobTooLargeError } from './errors.js'

/** One adapter of the port, opened for one test, with a look behind the port at what it left in storage. */
export interface BlobStoreUnderTest {
  blobs: BlobStore
  /** What the storage holds: unfinished writes (temporary files, multipart uploads) and the stored blob names. */
  inspect(): Promise<{ unfinished: number; stored: string[] }>
  /** Leaves an unfinished write behind, as a crash in the middle of an upload would. */
  leaveUnfinishedWrite(): Promise<void>
  dispose(): Promise<void>
}

async function* chunks(...parts: string[]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part)
}

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text()
}

async function sha256Of(stream: ReadableStream<Uint8Array>): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256')
  let size = 0
  const reader = stream.getReader()
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    hash.update(read.value)
    size += read.value.byteLength
  }
  return { sha256: hash.digest('hex'), size }
}

/** `total` random bytes in chunks of uneven sizes (so parts and chunks never line up), and their sha256. */
function randomContent(total: number, failAfter?: number): { source: AsyncIterable<Uint8Array>; sha256: () => string } {
  const hash = createHash('sha256')
  const source = (async function* () {
    let sent = 0
    let step = 0
    while (sent < total) {
      if (failAfter !== undefined && sent >= failAfter) throw new Error('client went away')
      const size = Math.min(total - sent, 100_000 + ((step++ * 7919) % 150_000))
      const chunk = randomBytes(size)
      hash.update(chunk)
      sent += size
      yield chunk
    }
  })()
  return { source, sha256: () => hash.digest('hex') }
}

/**
 * The behaviour every {@link BlobStore} adapter must show, whatever holds the bytes: atomic streamed writes
 * with the exact size limits, sha256, ranges, deletes, the sweep, and nothing half-written ever visible.
 * `open` makes a fresh, empty store per test.
 *
 * @example
 * ```ts
 * describeBlobStoreContract('local folder', async () => openLocalUnderTest())
 * ```
 */
export function describeBlobStoreContract(name: string, open: () => Promise<BlobStoreUnderTest>): void {
  describe(`BlobStore contract: ${name}`, () => {
    let subject: BlobStoreUnderTest
    let blobs: BlobStore
    beforeEach(async () => {
      subject = await open()
      blobs = subject.blobs
    })
    afterEach(async () => {
      await subject.dispose()
    })

    const expectNothingStored = async (): Promise<void> => {
      expect(await subject.inspect()).toEqual({ unfinished: 0, stored: [] })
    }

    it('writes a stream, hashes and counts it, and reads it back whole or by range', async () => {
      const written = await blobs.write(chunks('hello ', 'world'), { expectedBytes: 11 })
      expect(written.size).toBe(11)
      expect(written.sha256).toBe(createHash('sha256').update('hello world').digest('hex'))
      expect(written.blobId).toMatch(/^blob_[0-9a-f]{32}$/)
      const whole = await blobs.read(written.blobId)
      expect(whole.size).toBe(11)
      expect(await text(whole.stream)).toBe('hello world')
      const tail = await blobs.read(written.blobId, { start: 6, end: 10 })
      expect(tail.size).toBe(11)
      expect(await text(tail.stream)).toBe('world')
      expect(await text((await blobs.read(written.blobId, { start: 0, end: 0 })).stream)).toBe('h')
      expect(await blobs.stat(written.blobId)).toEqual({ size: 11 })
      expect(await subject.inspect()).toEqual({ unfinished: 0, stored: [written.blobId] })
    })

    it('stores an empty blob', async () => {
      const written = await blobs.write(chunks(), { expectedBytes: 0 })
      expect(written).toEqual({ blobId: written.blobId, size: 0, sha256: createHash('sha256').digest('hex') })
      expect(await blobs.stat(written.blobId)).toEqual({ size: 0 })
      expect(await text((await blobs.read(written.blobId)).stream)).toBe('')
    })

    it('refuses a range that ends past the blob, and answers an empty range with no bytes', async () => {
      const { blobId } = await blobs.write(chunks('0123456789'))
      await expect(blobs.read(blobId, { start: 5, end: 10 })).rejects.toMatchObject({ code: 'BLOB_RANGE' })
      await expect(blobs.read(blobId, { start: 20, end: 30 })).rejects.toMatchObject({ code: 'BLOB_RANGE' })
      await expect(blobs.read(blobId, { start: 6, end: 3 })).rejects.toMatchObject({ code: 'BLOB_RANGE' })
      const empty = await blobs.read(blobId, { start: 4, end: 3 })
      expect(await text(empty.stream)).toBe('')
      expect(empty.size).toBe(10)
    })

    it('aborts as soon as the stream exceeds the declared size and leaves nothing behind', async () => {
      let pulled = 0
      async function* endless(): AsyncIterable<Uint8Array> {
        for (;;) {
          pulled++
          yield new Uint8Array(4)
        }
      }
      const failure = await blobs.write(endless(), { expectedBytes: 10 }).catch((error: unknown) => error)
      expect(failure).toBeInstanceOf(BlobTooLargeError)
      expect(failure).toMatchObject({ code: 'BLOB_TOO_LARGE', limit: 10 })
      expect(pulled).toBe(3)
      await expectNothingStored()
    })

    it('enforces the hard ceiling without a declared size', async () => {
      await expect(blobs.write(chunks('123', '456'), { maxBytes: 5 })).rejects.toBeInstanceOf(BlobTooLargeError)
      await expectNothingStored()
    })

    it('fails a short stream at its end and stores nothing', async () => {
      const failure = await blobs.write(chunks('abc'), { expectedBytes: 5 }).catch((error: unknown) => error)
      expect(failure).toBeInstanceOf(BlobSizeMismatchError)
      expect(failure).toMatchObject({ expected: 5, received: 3 })
      await expectNothingStored()
    })

    it('passes on the error of a source that breaks midway, and stores nothing', async () => {
      async function* broken(): AsyncIterable<Uint8Array> {
        yield new Uint8Array(3)
        throw new Error('client went away')
      }
      await expect(blobs.write(broken())).rejects.toThrow('client went away')
      await expectNothingStored()
    })

    it('writes content of many parts byte for byte, in chunks that never line up with them', async () => {
      const content = randomContent(13 * 1024 * 1024 + 12_345)
      const written = await blobs.write(content.source, { expectedBytes: 13 * 1024 * 1024 + 12_345 })
      expect(written.sha256).toBe(content.sha256())
      expect(await sha256Of((await blobs.read(written.blobId)).stream)).toEqual({ sha256: written.sha256, size: written.size })
      const range = await blobs.read(written.blobId, { start: 5 * 1024 * 1024 - 10, end: 5 * 1024 * 1024 + 9 })
      expect((await sha256Of(range.stream)).size).toBe(20)
    })

    it('a large write that breaks after several parts leaves nothing visible and nothing unfinished', async () => {
      const content = randomContent(20 * 1024 * 1024, 12 * 1024 * 1024)
      await expect(blobs.write(content.source)).rejects.toThrow('client went away')
      await expectNothingStored()
    })

    it('a large write that exceeds its declared size after several parts stores nothing', async () => {
      const content = randomContent(20 * 1024 * 1024)
      await expect(blobs.write(content.source, { expectedBytes: 11 * 1024 * 1024 })).rejects.toBeInstanceOf(BlobTooLargeError)
      await expectNothingStored()
    })

    it('keeps concurrent writes apart', async () => {
      const bodies = Array.from({ length: 8 }, (_, i) => `body ${i} `.repeat(1000 + i))
      const written = await Promise.all(bodies.map((body) => blobs.write(chunks(body), { expectedBytes: body.length })))
      expect(new Set(written.map((w) => w.blobId)).size).toBe(8)
      for (const [i, w] of written.entries()) {
        expect(await text((await blobs.read(w.blobId)).stream)).toBe(bodies[i])
      }
    })

    it('deletes a blob (a missing one too), and an opened blob keeps streaming after its delete', async () => {
      const { blobId } = await blobs.write(chunks('still here'))
      const opened = await blobs.read(blobId)
      await blobs.delete(blobId)
      expect(await blobs.stat(blobId)).toBeUndefined()
      expect(await text(opened.stream)).toBe('still here')
      await expect(blobs.read(blobId)).rejects.toBeInstanceOf(BlobNotFoundError)
      await expect(blobs.read(blobId, { start: 0, end: 1 })).rejects.toBeInstanceOf(BlobNotFoundError)
      await expect(blobs.delete(blobId)).resolves.toBeUndefined()
      await expectNothingStored()
    })

    it('never turns an id into an arbitrary path or key', async () => {
      for (const bad of ['../../etc/passwd', 'blob_../x', '', 'BLOB_0123']) {
        const failure = await blobs.read(bad).catch((error: unknown) => error)
        expect(failure).toBeInstanceOf(BlobError)
        expect(failure).toMatchObject({ code: 'BLOB_BAD_ID' })
      }
      await expect(blobs.stat('../x')).rejects.toMatchObject({ code: 'BLOB_BAD_ID' })
      await expect(blobs.delete('../x')).rejects.toMatchObject({ code: 'BLOB_BAD_ID' })
    })

    it('sweeps unfinished writes and unreferenced blobs, keeping referenced ones', async () => {
      const kept = await blobs.write(chunks('keep'))
      const orphan = await blobs.write(chunks('orphan'))
      await subject.leaveUnfinishedWrite()
      expect((await subject.inspect()).unfinished).toBe(1)
      const report = await blobs.sweep((ids) => new Set(ids.filter((id) => id === kept.blobId)))
      expect(report).toEqual({ temporaryFiles: 1, orphans: 1 })
      expect(await blobs.stat(kept.blobId)).toEqual({ size: 4 })
      expect(await blobs.stat(orphan.blobId)).toBeUndefined()
      expect(await subject.inspect()).toEqual({ unfinished: 0, stored: [kept.blobId] })
    })

    it('leaves what was written after olderThan alone (uploads that started after the app did)', async () => {
      const before = new Date(Date.now() - 60_000)
      const fresh = await blobs.write(chunks('fresh'))
      await subject.leaveUnfinishedWrite()
      expect(await blobs.sweep(() => new Set<string>(), { olderThan: before })).toEqual({ temporaryFiles: 0, orphans: 0 })
      expect(await blobs.stat(fresh.blobId)).toEqual({ size: 5 })
      expect((await subject.inspect()).unfinished).toBe(1)
    })

    it('leaves a blob written while the start sweeps alone, though its storage stamps it coarsely', async () => {
      // The start's sweep runs beside the first upload, whose blob is in place before its row commits, so nothing
      // references it yet; a file system's mtime reads up to a timer tick behind the clock that took the start, and
      // S3's LastModified up to a second.
      const startedAt = new Date()
      const sweeping = blobs.sweep(() => new Set<string>(), { olderThan: startedAt })
      const first = await blobs.write(chunks('first upload'))
      expect(await sweeping).toEqual({ temporaryFiles: 0, orphans: 0 })
      expect(await blobs.stat(first.blobId)).toEqual({ size: 12 })
    })
  })
}
