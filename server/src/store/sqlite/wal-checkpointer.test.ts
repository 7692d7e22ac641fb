import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type Sqlite } from './connect.js'
import { WalCheckpointer, type CheckpointOutcome } from './wal-checkpointer.js'

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

function database(): { db: Sqlite; file: string } {
  const folder = mkdtempSync(join(tmpdir(), 'botshelf-checkpointer-'))
  folders.push(folder)
  const file = join(folder, 'db.sqlite')
  const db = openDatabase(file, { groupCommit: true })
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)')
  return { db, file }
}

/** Commits `count` rows of 2 KB each, one transaction each, telling the checkpointer after each. */
function writeRows(db: Sqlite, checkpointer: WalCheckpointer, count: number): void {
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)')
  for (let i = 0; i < count; i++) {
    insert.run('x'.repeat(2048))
    checkpointer.afterWrite()
  }
}

describe('WalCheckpointer', () => {
  it('turns the connection’s own checkpoints off and copies the log into the database file from its thread', async () => {
    const { db, file } = database()
    const outcomes: CheckpointOutcome[] = []
    let reported: () => void = () => undefined
    const checkpointer = new WalCheckpointer(db, file, {
      thresholdFrames: 50,
      onCheckpoint: (outcome) => {
        outcomes.push(outcome)
        reported()
      },
    })
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0)
    const sizeBefore = statSync(file).size

    const checkpointed = new Promise<void>((resolve) => (reported = resolve))
    writeRows(db, checkpointer, 60)
    await checkpointed

    expect(outcomes[0]!.busy).toBe(0)
    expect(outcomes[0]!.log).toBeGreaterThanOrEqual(50)
    expect(outcomes[0]!.checkpointed).toBe(outcomes[0]!.log)
    // The rows' pages are in the database file itself now, not only in the log.
    expect(statSync(file).size).toBeGreaterThan(sizeBefore + 40 * 2048)

    await checkpointer.close()
    db.close()
    // The server's connection closed last: SQLite checkpointed what was left and removed the log.
    expect(existsSync(`${file}-wal`)).toBe(false)
  })

  it('starts no thread while the log stays under the threshold', async () => {
    const { db, file } = database()
    const outcomes: CheckpointOutcome[] = []
    const checkpointer = new WalCheckpointer(db, file, { onCheckpoint: (outcome) => outcomes.push(outcome) })
    writeRows(db, checkpointer, 20)
    await new Promise((resolve) => setImmediate(resolve))
    expect(outcomes).toEqual([])
    expect((checkpointer as unknown as { worker: unknown }).worker).toBeUndefined()
    await checkpointer.close()
    db.close()
  })

  it('gives the checkpoints back to the connection when its thread cannot run', async () => {
    const { db } = database()
    const folder = mkdtempSync(join(tmpdir(), 'botshelf-checkpointer-'))
    folders.push(folder)
    let fellBack: (error: unknown) => void = () => undefined
    const failure = new Promise<unknown>((resolve) => (fellBack = resolve))
    // The thread is pointed at a database that does not exist: it fails to open it.
    const checkpointer = new WalCheckpointer(db, join(folder, 'missing.sqlite'), { thresholdFrames: 0, onFallback: (error) => fellBack(error) })
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0)
    checkpointer.afterWrite()
    expect(String(await failure)).toMatch(/missing\.sqlite|does not exist|unable to open/i)
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000)
    await checkpointer.close()
    db.close()
  })

  it('holds the process until its thread has closed: a script ending on `await close()` exits 0 with the log removed', () => {
    const folder = mkdtempSync(join(tmpdir(), 'botshelf-checkpointer-'))
    folders.push(folder)
    const file = join(folder, 'db.sqlite')
    const here = (name: string) => JSON.stringify(new URL(`./${name}`, import.meta.url).href)
    const script = `
      import { openDatabase } from ${here('connect.ts')}
      import { WalCheckpointer } from ${here('wal-checkpointer.ts')}
      const file = process.argv[1]
      const db = openDatabase(file, { groupCommit: true })
      db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)')
      const checkpointer = new WalCheckpointer(db, file, { thresholdFrames: 10 })
      const insert = db.prepare('INSERT INTO t (body) VALUES (?)')
      for (let i = 0; i < 50; i++) { insert.run('x'.repeat(2048)); checkpointer.afterWrite() }
      await checkpointer.close()
      db.close()
      console.log('closed')
    `
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, file], {
      cwd: fileURLToPath(new URL('../../../../', import.meta.url)),
      encoding: 'utf8',
    })
    // Unreferenced while awaited, the thread let the process end first: exit 13, an unsettled top-level await.
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toContain('closed')
    expect(existsSync(`${file}-wal`)).toBe(false)
  })
})
