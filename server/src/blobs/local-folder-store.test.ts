import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { describeBlobStoreContract } from './blob-store.contract.js'
import { createLocalFolderBlobStore, nodeBlobFileSystem, SWEEP_NAMES_PER_TURN, type BlobFileSystem } from './local-folder-store.js'

async function* chunks(...parts: string[]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part)
}

describeBlobStoreContract('local folder', async () => {
  const root = await mkdtemp(join(tmpdir(), 'botshelf-blobs-'))
  const blobs = createLocalFolderBlobStore({ root })
  return {
    blobs,
    async inspect() {
      return { unfinished: (await readdir(join(root, 'tmp'))).length, stored: (await readdir(join(root, 'blobs'))).sort() }
    },
    async leaveUnfinishedWrite() {
      await writeFile(join(root, 'tmp', `blob_${randomBytes(16).toString('hex')}.partial`), 'half')
    },
    dispose: () => rm(root, { recursive: true, force: true }),
  }
})

/** A promise opened from outside: a step of the test waits for a step of the store, never for time. */
function latch(): { promise: Promise<void>; open(): void } {
  let open!: () => void
  const promise = new Promise<void>((resolve) => (open = resolve))
  return { promise, open }
}

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
    names: (path) => nodeBlobFileSystem.names(path),
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

  it('writes, renames the file into place, then fsyncs the file and the folder at once, and closes it', async () => {
    const calls: string[] = []
    const blobs = createLocalFolderBlobStore({ root, fs: recordingFileSystem(calls) })
    await blobs.write(chunks('hello ', 'world'), { expectedBytes: 11 })
    expect(calls).toEqual([
      'open temp wx',
      'write temp',
      'write temp',
      'rename temp → blob',
      'fsync temp',
      'open blobs-folder r',
      'fsync blobs-folder',
      'close blobs-folder',
      'close temp',
    ])
  })

  it('resolves only once both the file and the folder fsyncs have finished', async () => {
    const calls: string[] = []
    const recording = recordingFileSystem(calls)
    const fileGate = latch()
    const folderGate = latch()
    const fileSyncCalled = latch()
    const fileSynced = latch()
    const folderSyncCalled = latch()
    const fs: BlobFileSystem = {
      ...recording,
      async open(path, flags) {
        const handle = await recording.open(path, flags)
        if (flags === 'wx') return { ...handle, sync: async () => { fileSyncCalled.open(); await fileGate.promise; await handle.sync(); fileSynced.open() } }
        return { ...handle, sync: async () => { folderSyncCalled.open(); await folderGate.promise; await handle.sync() } }
      },
    }
    const blobs = createLocalFolderBlobStore({ root, fs })
    let settled = false
    const writing = blobs.write(chunks('abc'), { expectedBytes: 3 }).finally(() => (settled = true))
    // Both fsyncs are asked for only after the rename, and at once.
    await fileSyncCalled.promise
    await folderSyncCalled.promise
    expect(calls).toContain('rename temp → blob')
    fileGate.open()
    await fileSynced.promise
    await new Promise((resolve) => setImmediate(resolve))
    // The file is on the disk, the folder's entry not yet: neither resolved nor closed.
    expect(settled).toBe(false)
    expect(calls).not.toContain('close temp')
    folderGate.open()
    expect((await writing).size).toBe(3)
    expect(calls.indexOf('fsync blobs-folder')).toBeGreaterThan(calls.indexOf('rename temp → blob'))
  })

  it('concurrent writes share the folder fsync, and every rename is followed by one', async () => {
    const calls: string[] = []
    const recording = recordingFileSystem(calls)
    // The first folder fsync is held until all twelve blobs are renamed: the other eleven must share the next one.
    const allRenamed = latch()
    let renamed = 0
    const fs: BlobFileSystem = {
      ...recording,
      async rename(from, to) {
        await recording.rename(from, to)
        if (++renamed === 12) allRenamed.open()
      },
      async open(path, flags) {
        const handle = await recording.open(path, flags)
        if (flags === 'wx') return handle
        return { ...handle, sync: async () => { await allRenamed.promise; await handle.sync() } }
      },
    }
    const blobs = createLocalFolderBlobStore({ root, fs })
    await Promise.all(Array.from({ length: 12 }, (_, i) => blobs.write(chunks(`blob ${i}`), { expectedBytes: `blob ${i}`.length })))
    const folderSyncs = calls.flatMap((call, index) => (call === 'fsync blobs-folder' ? [index] : []))
    const renames = calls.flatMap((call, index) => (call === 'rename temp → blob' ? [index] : []))
    expect(renames).toHaveLength(12)
    expect(folderSyncs.length).toBeGreaterThanOrEqual(1)
    expect(folderSyncs.length).toBeLessThanOrEqual(2)
    // Every rename is followed by a folder fsync.
    for (const rename of renames) expect(folderSyncs.some((sync) => sync > rename)).toBe(true)
  })

  it('an empty blob is renamed and fsynced the same way', async () => {
    const calls: string[] = []
    const blobs = createLocalFolderBlobStore({ root, fs: recordingFileSystem(calls) })
    await blobs.write(chunks(), { expectedBytes: 0 })
    expect(calls).toEqual(['open temp wx', 'rename temp → blob', 'fsync temp', 'open blobs-folder r', 'fsync blobs-folder', 'close blobs-folder', 'close temp'])
  })

  it('reads the first chunks while the temporary file is still being opened, and writes them once it is', async () => {
    const calls: string[] = []
    const recording = recordingFileSystem(calls)
    let letOpen!: () => void
    const openGate = new Promise<void>((resolve) => (letOpen = resolve))
    const fs: BlobFileSystem = {
      ...recording,
      async open(path, flags) {
        if (flags === 'wx') await openGate
        return recording.open(path, flags)
      },
    }
    let read = 0
    const allRead = latch()
    async function* body(): AsyncIterable<Uint8Array> {
      for (const part of ['hello ', 'world']) {
        read++
        yield new TextEncoder().encode(part)
      }
      // Reached when the store asks for a third chunk: it took both while the file was still opening.
      allRead.open()
    }
    const blobs = createLocalFolderBlobStore({ root, fs })
    const writing = blobs.write(body(), { expectedBytes: 11 })
    await allRead.promise
    expect(read).toBe(2)
    expect(calls).toEqual([])
    letOpen()
    const written = await writing
    expect(calls.slice(0, 4)).toEqual(['open temp wx', 'write temp', 'write temp', 'rename temp → blob'])
    expect(written.sha256).toBe(createHash('sha256').update('hello world').digest('hex'))
    expect(await readdir(join(root, 'tmp'))).toEqual([])
  })

  it('a temporary file that cannot be opened stores nothing and passes the error on, however much was read', async () => {
    const eacces = Object.assign(new Error('EACCES: permission denied, open'), { code: 'EACCES' })
    for (const parts of [[], ['abc'], ['abc', 'def', 'ghi']]) {
      const fs: BlobFileSystem = {
        ...nodeBlobFileSystem,
        open: (path, flags) => (flags === 'wx' ? Promise.reject(eacces) : nodeBlobFileSystem.open(path, flags)),
      }
      const blobs = createLocalFolderBlobStore({ root, fs })
      await expect(blobs.write(chunks(...parts))).rejects.toBe(eacces)
      expect(await readdir(join(root, 'tmp'))).toEqual([])
      expect(await readdir(join(root, 'blobs'))).toEqual([])
    }
  })

  it('a failing fsync of the file stores nothing: the renamed blob removed, the error passed on', async () => {
    const calls: string[] = []
    const eio = Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' })
    const blobs = createLocalFolderBlobStore({ root, fs: recordingFileSystem(calls, { on: 'fsync temp', error: eio }) })
    await expect(blobs.write(chunks('abc'), { expectedBytes: 3 })).rejects.toBe(eio)
    expect(calls.slice(-2)).toEqual(['close temp', 'rm blob'])
    expect(await readdir(join(root, 'tmp'))).toEqual([])
    expect(await readdir(join(root, 'blobs'))).toEqual([])
  })

  it('a failing fsync of the folder stores nothing either', async () => {
    const calls: string[] = []
    const eio = Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' })
    const blobs = createLocalFolderBlobStore({ root, fs: recordingFileSystem(calls, { on: 'fsync blobs-folder', error: eio }) })
    await expect(blobs.write(chunks('abc'), { expectedBytes: 3 })).rejects.toBe(eio)
    expect(calls.slice(-2)).toEqual(['close temp', 'rm blob'])
    expect(await readdir(join(root, 'tmp'))).toEqual([])
    expect(await readdir(join(root, 'blobs'))).toEqual([])
  })

})

describe('local folder blob store: the start sweep and the event loop', () => {
  let root: string
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'botshelf-blobs-sweep-'))
  })
  afterEach(() => rm(root, { recursive: true, force: true }))

  it('never takes a blob it wrote during the sweep for a leftover, though the file system stamps it older', async () => {
    // The blobs folder is listed only once the test has written: the listing then holds the new blob.
    let openListing: () => void = () => {}
    const listingMayStart = new Promise<void>((resolve) => (openListing = resolve))
    const fs: BlobFileSystem = {
      ...nodeBlobFileSystem,
      names: async function* (path) {
        if (path.endsWith('blobs')) await listingMayStart
        yield* nodeBlobFileSystem.names(path)
      },
    }
    const blobs = createLocalFolderBlobStore({ root, fs })
    const leftover = await blobs.write(chunks('left by a crash'))
    const olderThan = new Date()
    const anHourBefore = (olderThan.getTime() - 60 * 60 * 1000) / 1000
    await utimes(join(root, 'blobs', leftover.blobId), anHourBefore, anHourBefore)
    const sweeping = blobs.sweep(() => new Set<string>(), { olderThan })
    const written = await blobs.write(chunks('the first upload'))
    // A coarse clock stamps a file written after olderThan a few milliseconds before it; an hour is the extreme.
    await utimes(join(root, 'blobs', written.blobId), anHourBefore, anHourBefore)
    openListing()
    expect(await sweeping).toEqual({ temporaryFiles: 0, orphans: 1 })
    expect(await blobs.stat(written.blobId)).toEqual({ size: 16 })
    expect(await blobs.stat(leftover.blobId)).toBeUndefined()
    // Once that sweep is over, the blob is like any other: a later sweep takes it if nothing references it.
    expect(await blobs.sweep(() => new Set<string>(), { olderThan })).toEqual({ temporaryFiles: 0, orphans: 1 })
  })

  it('asks about a large folder a batch of names per question and per turn of the loop, and still removes every orphan', async () => {
    const blobs = createLocalFolderBlobStore({ root })
    const names = Array.from({ length: 1500 }, () => `blob_${randomBytes(16).toString('hex')}`)
    await Promise.all(names.map((name) => writeFile(join(root, 'blobs', name), 'x')))
    const orphans = new Set(names.slice(0, 7))
    // A chain of immediates counts the loop's turns; the question (answered synchronously, as the embedded
    // database's is) records how many names were asked about since the last turn.
    let checkedThisTurn = 0
    let mostInOneTurn = 0
    let ticking = true
    const tick = (): void => {
      checkedThisTurn = 0
      if (ticking) setImmediate(tick)
    }
    setImmediate(tick)
    let questions = 0
    const report = await blobs.sweep((blobIds) => {
      questions++
      checkedThisTurn += blobIds.length
      mostInOneTurn = Math.max(mostInOneTurn, checkedThisTurn)
      return new Set(blobIds.filter((blobId) => !orphans.has(blobId)))
    })
    ticking = false
    expect(report).toEqual({ temporaryFiles: 0, orphans: 7 })
    // One question a batch: 1,500 names in batches of 256.
    expect(questions).toBe(Math.ceil(1500 / SWEEP_NAMES_PER_TURN))
    expect((await readdir(join(root, 'blobs'))).length).toBe(1500 - 7)
    expect(mostInOneTurn).toBeGreaterThan(0)
    expect(mostInOneTurn).toBeLessThanOrEqual(SWEEP_NAMES_PER_TURN)
  })
})
