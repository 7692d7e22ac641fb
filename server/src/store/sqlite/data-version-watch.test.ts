import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DataVersionWatch } from './data-version-watch.js'
import { openDatabase, type Sqlite } from './connect.js'

/** Lets the event loop finish this callback (its ticks) and start another. */
const nextCallback = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

describe('DataVersionWatch', () => {
  let dir: string
  let db: Sqlite
  let other: Sqlite

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'botshelf-watch-'))
    db = openDatabase(join(dir, 'botshelf.db'))
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)')
    other = openDatabase(join(dir, 'botshelf.db'))
  })

  afterEach(() => {
    other.close()
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('is one object per connection', () => {
    expect(DataVersionWatch.of(db)).toBe(DataVersionWatch.of(db))
    expect(DataVersionWatch.of(other)).not.toBe(DataVersionWatch.of(db))
  })

  it("keeps its epoch across the connection's own commits", () => {
    const watch = DataVersionWatch.of(db)
    const epoch = watch.read()
    db.prepare('INSERT INTO notes (text) VALUES (?)').run('mine')
    db.transaction(() => db.prepare('UPDATE notes SET text = ?').run('still mine'))()
    expect(watch.read()).toBe(epoch)
  })

  it("moves its epoch once per observed commit of another connection, and only then", async () => {
    const watch = DataVersionWatch.of(db)
    const epoch = watch.read()
    other.prepare('INSERT INTO notes (text) VALUES (?)').run('theirs')
    await nextCallback()
    const moved = watch.read()
    expect(moved).not.toBe(epoch)
    await nextCallback()
    expect(watch.read()).toBe(moved)
    other.prepare('INSERT INTO notes (text) VALUES (?)').run('theirs again')
    await nextCallback()
    expect(watch.read()).not.toBe(moved)
  })

  it('lets each reader see a move another reader of the same connection observed first', async () => {
    const watch = DataVersionWatch.of(db)
    const firstSeen = watch.read()
    const secondSeen = DataVersionWatch.of(db).read()
    other.prepare('INSERT INTO notes (text) VALUES (?)').run('theirs')
    await nextCallback()
    // The first reader observes the commit; the second still finds an epoch different from the one it kept.
    expect(watch.read()).not.toBe(firstSeen)
    expect(DataVersionWatch.of(db).read()).not.toBe(secondSeen)
  })

  it('serves the continuation a callback queued after its read (a request\'s file read after its token check)', async () => {
    const watch = DataVersionWatch.of(db)
    await nextCallback()
    const epoch = watch.read()
    other.prepare('INSERT INTO notes (text) VALUES (?)').run('between the two reads')
    const inContinuation = await Promise.resolve().then(() => watch.read())
    // The commit above is newer than the read: the continuation still answers from the read, as a request would.
    expect(inContinuation).toBe(epoch)
    await nextCallback()
    expect(watch.read()).not.toBe(epoch)
  })

  it('reads once per callback of the event loop: a commit made meanwhile is seen from the next callback (decision 1235)', async () => {
    const watch = DataVersionWatch.of(db)
    await nextCallback()
    const epoch = watch.read()
    other.prepare('INSERT INTO notes (text) VALUES (?)').run('within the same callback')
    // Everything running in this callback came in before the first read, which is later than its arrival.
    expect(watch.read()).toBe(epoch)
    await Promise.resolve()
    expect(watch.read()).toBe(epoch)
    await nextCallback()
    expect(watch.read()).not.toBe(epoch)
  })

  it('ignores what another connection has not committed yet', () => {
    const watch = DataVersionWatch.of(db)
    const epoch = watch.read()
    other.exec('BEGIN IMMEDIATE')
    other.prepare('INSERT INTO notes (text) VALUES (?)').run('pending')
    expect(watch.read()).toBe(epoch)
    other.exec('ROLLBACK')
    expect(watch.read()).toBe(epoch)
  })
})
