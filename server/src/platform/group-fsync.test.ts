import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fsyncFile, GroupFsync, type FsyncHandle } from './group-fsync.js'

/** An fsync that finishes when the test says so, and records each call. */
function heldSync() {
  const started: Array<{ finish: (error?: Error) => void }> = []
  const sync = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      started.push({ finish: (error) => (error ? reject(error) : resolve()) })
    })
  return { sync, started }
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

describe('GroupFsync (group commit)', () => {
  it('a caller is answered only after an fsync that started after its call', async () => {
    const held = heldSync()
    const wal = new GroupFsync('/db-wal', held.sync)
    let first = false
    let second = false
    void wal.durable().then(() => (first = true))
    await tick()
    // This commit came after the running fsync began: that fsync may not cover it.
    void wal.durable().then(() => (second = true))
    held.started[0]!.finish()
    await tick()
    expect(first).toBe(true)
    expect(second).toBe(false)
    expect(held.started).toHaveLength(2)
    held.started[1]!.finish()
    await tick()
    expect(second).toBe(true)
  })

  it('callers arriving while an fsync runs share the next one: 40 commits, 2 fsyncs', async () => {
    const held = heldSync()
    const wal = new GroupFsync('/db-wal', held.sync)
    const answered: Array<Promise<void>> = [wal.durable()]
    for (let i = 0; i < 39; i++) answered.push(wal.durable())
    await tick()
    expect(held.started).toHaveLength(1)
    held.started[0]!.finish()
    await tick()
    expect(held.started).toHaveLength(2)
    held.started[1]!.finish()
    await Promise.all(answered)
    expect(wal.fsyncCount).toBe(2)
  })

  it('a failed fsync rejects the callers it covered; the next caller gets a fresh fsync', async () => {
    const held = heldSync()
    const wal = new GroupFsync('/db-wal', held.sync)
    const failed = wal.durable()
    held.started[0]!.finish(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }))
    await expect(failed).rejects.toThrow('EIO')
    const next = wal.durable()
    expect(held.started).toHaveLength(2)
    held.started[1]!.finish()
    await expect(next).resolves.toBeUndefined()
  })

  it('fsyncFile flushes an existing file and treats a missing one as nothing to flush', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'botshelf-walsync-'))
    try {
      writeFileSync(join(dir, 'db-wal'), 'frames')
      await expect(fsyncFile(join(dir, 'db-wal'))).resolves.toBeUndefined()
      await expect(fsyncFile(join(dir, 'absent-wal'))).resolves.toBeUndefined()
      await expect(fsyncFile(join(dir, 'not-a-folder', 'x'))).resolves.toBeUndefined()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('GroupFsync holding the file open between fsyncs', () => {
  /** An opener whose handles record their calls; each fsync finishes when the test says so. */
  function recordingOpener() {
    const calls: string[] = []
    const pending: Array<{ finish: (error?: Error) => void }> = []
    let opened = 0
    const open = async (): Promise<FsyncHandle> => {
      const id = ++opened
      calls.push(`open ${id}`)
      return {
        sync: () =>
          new Promise<void>((resolve, reject) => {
            calls.push(`fsync ${id}`)
            pending.push({ finish: (error) => (error ? reject(error) : resolve()) })
          }),
        close: async () => void calls.push(`close ${id}`),
      }
    }
    return { open, calls, pending }
  }

  it('opens once for back-to-back fsyncs and closes when nobody waits any more', async () => {
    const opener = recordingOpener()
    const wal = new GroupFsync('/db-wal', { open: opener.open })
    const first = wal.durable()
    await tick()
    const second = wal.durable()
    const third = wal.durable()
    opener.pending[0]!.finish()
    await first
    await tick()
    expect(opener.calls).toEqual(['open 1', 'fsync 1', 'fsync 1'])
    opener.pending[1]!.finish()
    await Promise.all([second, third])
    await tick()
    expect(opener.calls).toEqual(['open 1', 'fsync 1', 'fsync 1', 'close 1'])
    // The next writer opens the file again.
    const later = wal.durable()
    await tick()
    opener.pending[2]!.finish()
    await later
    await tick()
    expect(opener.calls.slice(4)).toEqual(['open 2', 'fsync 2', 'close 2'])
    expect(wal.fsyncCount).toBe(3)
  })

  it('with datasync, flushes through fdatasync where the handle has it, else through fsync', async () => {
    const calls: string[] = []
    const handle = (withDatasync: boolean): FsyncHandle => ({
      sync: async () => void calls.push('fsync'),
      ...(withDatasync ? { datasync: async () => void calls.push('fdatasync') } : {}),
      close: async () => void calls.push('close'),
    })
    await new GroupFsync('/db-wal', { open: async () => handle(true), datasync: true }).durable()
    await new GroupFsync('/db-wal', { open: async () => handle(false), datasync: true }).durable()
    await new GroupFsync('/db-wal', { open: async () => handle(true) }).durable()
    await tick()
    expect(calls.filter((call) => call !== 'close')).toEqual(['fdatasync', 'fsync', 'fsync'])
  })

  it('a failed fsync rejects its callers, drops the handle, and the next call opens a fresh one', async () => {
    const opener = recordingOpener()
    const wal = new GroupFsync('/db-wal', { open: opener.open })
    const failing = wal.durable()
    await tick()
    const eio = new Error('EIO')
    opener.pending[0]!.finish(eio)
    await expect(failing).rejects.toBe(eio)
    await tick()
    expect(opener.calls).toEqual(['open 1', 'fsync 1', 'close 1'])
    const next = wal.durable()
    await tick()
    opener.pending[1]!.finish()
    await next
    expect(opener.calls.slice(3, 5)).toEqual(['open 2', 'fsync 2'])
  })

  it('by default fsyncs the real file, and a file not written yet has nothing to flush', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'botshelf-held-fsync-'))
    try {
      const missing = new GroupFsync(join(dir, 'absent-wal'))
      await expect(missing.durable()).resolves.toBeUndefined()
      writeFileSync(join(dir, 'db-wal'), 'frames')
      const wal = new GroupFsync(join(dir, 'db-wal'))
      await Promise.all(Array.from({ length: 10 }, () => wal.durable()))
      expect(wal.fsyncCount).toBeLessThanOrEqual(2)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
