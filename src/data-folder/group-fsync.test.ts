import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fsyncFile, GroupFsync } from './group-fsync.js'

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
