import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DataVersionWatch } from './data-version-watch.js'
import { openDatabase, type Sqlite } from './open-database.js'

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

  it("moves its epoch once per observed commit of another connection, and only then", () => {
    const watch = DataVersionWatch.of(db)
    const epoch = watch.read()
    other.prepare('INSERT INTO notes (text) VALUES (?)').run('theirs')
    const moved = watch.read()
    expect(moved).not.toBe(epoch)
    expect(watch.read()).toBe(moved)
    other.prepare('INSERT INTO notes (text) VALUES (?)').run('theirs again')
    expect(watch.read()).not.toBe(moved)
  })

  it('lets each reader see a move another reader of the same connection observed first', () => {
    const watch = DataVersionWatch.of(db)
    const firstSeen = watch.read()
    const secondSeen = DataVersionWatch.of(db).read()
    other.prepare('INSERT INTO notes (text) VALUES (?)').run('theirs')
    // The first reader observes the commit; the second still finds an epoch different from the one it kept.
    expect(watch.read()).not.toBe(firstSeen)
    expect(DataVersionWatch.of(db).read()).not.toBe(secondSeen)
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
