import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openSqliteBackend, type SqliteBackend } from './backend.js'
import { fsyncFile } from '../../platform/index.js'

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/**
 * The embedded backend acknowledges a write only once the write-ahead log holding it is fsynced (decision 1210):
 * these tests hold the fsync and watch when the callers are answered.
 */
describe('SQLite backend: writes are answered after the write-ahead log is on the disk', () => {
  let dir: string
  let backend: SqliteBackend
  let hold = false
  const synced: string[] = []
  const waiting: Array<() => void> = []

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botshelf-group-commit-'))
    hold = false
    synced.length = 0
    waiting.length = 0
    backend = await openSqliteBackend({
      dataDir: dir,
      fsyncFile: async (path) => {
        synced.push(path)
        if (hold) await new Promise<void>((resolve) => waiting.push(resolve))
        await fsyncFile(path)
      },
    })
  })
  afterEach(async () => {
    hold = false
    waiting.splice(0).forEach((release) => release())
    await backend.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('runs SQLite with synchronous = NORMAL in WAL mode, and fsyncs the -wal file itself', async () => {
    expect(backend.db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(backend.db.pragma('synchronous', { simple: true })).toBe(1)
    await backend.auth.createBot({ name: 'a' })
    expect(synced.at(-1)).toBe(join(dir, 'botshelf.db-wal'))
  })

  it('a transaction is committed (visible) at once but answered only after the fsync', async () => {
    hold = true
    let answered = false
    const done = backend.transaction(async (tx) => tx.auth.createBot({ name: 'held' })).then((bot) => ((answered = true), bot))
    for (let i = 0; i < 5 && waiting.length === 0; i++) await tick()
    expect(waiting).toHaveLength(1)
    expect(answered).toBe(false)
    // Committed: the next transaction may begin while this one's fsync runs.
    expect(backend.db.prepare("SELECT count(*) FROM bots WHERE name = 'held'").pluck().get()).toBe(1)
    waiting.shift()!()
    const bot = await done
    expect(answered).toBe(true)
    expect(bot.name).toBe('held')
  })

  it('a write through the root ports waits for the fsync; a read does not fsync at all', async () => {
    const bot = await backend.auth.createBot({ name: 'reader' })
    const before = synced.length
    await backend.auth.listBots()
    await backend.auth.getBot(bot.id)
    await backend.files.list({ botId: bot.id, scope: { kind: 'all' }, sortField: 'key', sortDirection: 'asc', pageSize: 20 })
    expect(synced.length).toBe(before)

    hold = true
    let answered = false
    const created = backend.auth.createBot({ name: 'writer' }).then(() => (answered = true))
    for (let i = 0; i < 5 && waiting.length === 0; i++) await tick()
    expect(waiting).toHaveLength(1)
    expect(answered).toBe(false)
    waiting.shift()!()
    await created
    expect(answered).toBe(true)
  })

  it('concurrent transactions share fsyncs: 30 commits need far fewer than 30', async () => {
    const before = synced.length
    await Promise.all(Array.from({ length: 30 }, (_, i) => backend.transaction((tx) => tx.auth.createBot({ name: `bot-${i}` }))))
    expect((await backend.auth.listBots()).length).toBeGreaterThanOrEqual(30)
    const fsyncs = synced.length - before
    expect(fsyncs).toBeGreaterThanOrEqual(1)
    expect(fsyncs).toBeLessThan(30)
  })

  it('a failed fsync fails the write that waited for it', async () => {
    await backend.close()
    backend = await openSqliteBackend({
      dataDir: dir,
      fsyncFile: async () => {
        throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' })
      },
    })
    await expect(backend.transaction((tx) => tx.auth.createBot({ name: 'lost' }))).rejects.toThrow('EIO')
    await expect(backend.auth.createBot({ name: 'lost too' })).rejects.toThrow('EIO')
  })
})

describe('SQLite backend in memory', () => {
  it('has nothing to fsync and keeps synchronous = FULL', async () => {
    const backend = await openSqliteBackend({ memory: true })
    try {
      expect(backend.db.pragma('synchronous', { simple: true })).toBe(2)
      const bot = await backend.transaction((tx) => tx.auth.createBot({ name: 'm' }))
      expect(bot.name).toBe('m')
    } finally {
      await backend.close()
    }
  })
})
