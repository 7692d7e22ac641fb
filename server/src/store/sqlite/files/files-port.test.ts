import { beforeEach, describe, expect, it } from 'vitest'
import { normalizeTagFilter, type TagFilter } from 'botshelf/api'
import { mergePatch, type FileSortField, type UpsertFileInput } from '../../files/index.js'
import { FilesRepository } from './files-port.js'
import { filesMigrations } from './migrations.js'
import { runMigrations } from '../migrations.js'
import { openDatabase, type Sqlite } from '../connect.js'

const BOT = 'bot_a'
let clock = Date.parse('2026-11-22T00:00:00.000Z')
const tick = (): Date => new Date((clock += 1000))

function input(key: string, extra: Partial<UpsertFileInput> = {}): UpsertFileInput {
  return {
    botId: BOT,
    key,
    ownerScope: '',
    owner: { type: 'bot', id: BOT },
    size: 3,
    contentType: 'text/plain',
    tags: {},
    metadata: {},
    accessPolicies: [],
    index: false,
    expiresAt: null,
    ...extra,
  }
}

describe('FilesRepository', () => {
  let db: Sqlite
  let files: FilesRepository
  beforeEach(() => {
    db = openDatabase(':memory:')
    runMigrations(db, filesMigrations)
    files = new FilesRepository(db, tick)
  })

  const keysOf = (tags: TagFilter): string[] =>
    files
      .list({ botId: BOT, scope: { kind: 'all' }, tags: normalizeTagFilter(tags), sortField: 'key', sortDirection: 'asc', pageSize: 100 })
      .items.map((f) => f.key)

  it('compiles its hot statements once per connection', () => {
    files.upsert(input('a'))
    files.getByKey(BOT, 'a')
    const original = db.prepare.bind(db)
    let compiled = 0
    db.prepare = ((sql: string) => {
      compiled++
      return original(sql)
    }) as typeof db.prepare
    for (let i = 0; i < 5; i++) expect(files.getByKey(BOT, 'a')).toHaveLength(1)
    expect(compiled).toBe(0)
  })

  it('a plucked use of a cached statement does not change its later whole-row reads', () => {
    const created = files.upsert(input('a'))
    type Get = { get(...params: unknown[]): unknown; pluck(): { get(...params: unknown[]): unknown } }
    const statement = (sql: string) => (files as unknown as { statement(sql: string): Get }).statement(sql)
    expect(statement('SELECT id FROM files WHERE key = ?').pluck().get('a')).toBe(created.file.id)
    expect(statement('SELECT id FROM files WHERE key = ?').get('a')).toEqual({ id: created.file.id })
  })

  it('filters by tags in SQL: equality, OR, not, in, exists', () => {
    files.upsert(input('a', { tags: { lang: 'en', topic: 'sales' } }))
    files.upsert(input('b', { tags: { lang: 'fr' } }))
    files.upsert(input('c', { tags: { lang: 'de', topic: 'hr' } }))
    files.upsert(input('d'))
    expect(keysOf({ lang: 'en' })).toEqual(['a'])
    expect(keysOf({ lang: ['en', 'fr'] })).toEqual(['a', 'b'])
    expect(keysOf({ lang: { not: 'en' } })).toEqual(['b', 'c', 'd'])
    expect(keysOf({ lang: { in: ['de', 'fr'] } })).toEqual(['b', 'c'])
    expect(keysOf({ topic: { exists: true } })).toEqual(['a', 'c'])
    expect(keysOf({ topic: { exists: false } })).toEqual(['b', 'd'])
    expect(keysOf({ lang: ['en', 'de'], topic: 'hr' })).toEqual(['c'])
  })

  it('uses the tag index for filters', () => {
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN SELECT 1 FROM file_tags t WHERE t.bot_id = ? AND t.tag_key = ? AND t.tag_value IN (?, ?)`)
      .all(BOT, 'lang', 'en', 'fr') as Array<{ detail: string }>
    expect(plan.map((p) => p.detail).join(' ')).toContain('file_tags_lookup')
  })

  it("reads a key's files through the (bot_id, key) index, without a walk of the bot's files", () => {
    const fresh = new FilesRepository(db, tick)
    const original = db.prepare.bind(db)
    const compiled: string[] = []
    db.prepare = ((sql: string) => {
      compiled.push(sql)
      return original(sql)
    }) as typeof db.prepare
    fresh.getByKey(BOT, 'a')
    db.prepare = original
    expect(compiled).toHaveLength(1)
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${compiled[0]}`).all(BOT, 'a') as Array<{ detail: string }>).map((p) => p.detail).join(' ')
    expect(plan).toContain('files_bot_key (bot_id=? AND key=?)')
    expect(plan).not.toContain('TEMP B-TREE')
  })

  it('starts each page inside the sort index (no scan from the top, no temporary sort)', () => {
    const sql = FilesRepository.listSql('f.created_at', ['f.bot_id = ?', '(f.created_at, f.id) < (?, ?)'], 'DESC')
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(BOT, 'x', 'y', 20) as Array<{ detail: string }>).map((p) => p.detail).join(' ')
    expect(plan).toContain('files_bot_created (bot_id=? AND (created_at,id)<(?,?))')
    expect(plan).not.toContain('TEMP B-TREE')
  })

  it('keeps keys unique per bot and owner scope, and re-upserting starts a new version of the same file', () => {
    const first = files.upsert(input('k')).file
    const integrationFile = files.upsert(input('k', { ownerScope: 'slack', owner: { type: 'integration', name: 'slack', alias: 'slack' } })).file
    expect(integrationFile.id).not.toBe(first.id)
    const again = files.upsert(input('k', { tags: { v: '2' }, size: 9 }))
    expect(again.created).toBe(false)
    expect(again.file.id).toBe(first.id)
    expect(again.file.version).toBe(2)
    expect(again.file.declaredSize).toBe(9)
    expect(again.file.tags).toEqual({ v: '2' })
  })

  it('switches content only when the latest version completes, and reports the replaced blob', () => {
    const { file } = files.upsert(input('k'))
    const done = files.completeUpload(file.id, 1, { blobId: 'blob_1', size: 3, sha256: 'h1' })
    expect(done).toMatchObject({ unreferencedBlobId: null, file: { status: 'upload_completed', size: 3, contentVersion: 1 } })
    const v2 = files.upsert(input('k')).file
    expect(v2).toMatchObject({ status: 'upload_pending', blobId: 'blob_1', contentVersion: 1, version: 2 })
    expect(() => files.completeUpload(file.id, 1, { blobId: 'blob_x', size: 3, sha256: 'hx' })).toThrow(expect.objectContaining({ code: 'VERSION_SUPERSEDED' }))
    const v2done = files.completeUpload(file.id, 2, { blobId: 'blob_2', size: 3, sha256: 'h2' })
    expect(v2done).toMatchObject({ unreferencedBlobId: 'blob_1', file: { blobId: 'blob_2', contentVersion: 2 } })
    files.delete(file.id)
    expect(() => files.completeUpload(file.id, 2, { blobId: 'blob_3', size: 3, sha256: 'h3' })).toThrow(expect.objectContaining({ code: 'FILE_GONE' }))
  })

  it('records a failed upload only while the version has no content yet', () => {
    const { file } = files.upsert(input('f'))
    expect(files.failUpload(file.id, 1, 'too big')).toMatchObject({ status: 'upload_failed', failedStatusReason: 'too big' })
    files.completeUpload(file.id, 1, { blobId: 'blob_f', size: 3, sha256: 'h' })
    expect(files.failUpload(file.id, 1, 'a late retry failed')).toBeUndefined()
    expect(files.getById(BOT, file.id)).toMatchObject({ status: 'upload_completed', failedStatusReason: null })
    files.upsert(input('f'))
    expect(files.failUpload(file.id, 1, 'stale version')).toBeUndefined()
    expect(files.failUpload(file.id, 2, 'short')).toMatchObject({ status: 'upload_failed', blobId: 'blob_f' })
  })

  it('keeps a blob shared by a copy until the last row using it is deleted', () => {
    const { file } = files.upsert(input('src'))
    const done = files.completeUpload(file.id, 1, { blobId: 'blob_s', size: 3, sha256: 'h' })
    const copy = files.copy(done.file, { botId: BOT, key: 'dst', ownerScope: '', owner: { type: 'bot', id: BOT } }, undefined)
    expect(copy.file).toMatchObject({ key: 'dst', status: 'upload_completed', blobId: 'blob_s', size: 3 })
    expect(files.delete(file.id)).toEqual([])
    expect(files.delete(copy.file.id)).toEqual(['blob_s'])
  })

  it('hides expired files and deletes them in the sweep', () => {
    files.upsert(input('old', { expiresAt: new Date(clock + 5000).toISOString() }))
    files.upsert(input('new'))
    expect(keysOf({})).toEqual(['new', 'old'])
    clock += 10_000
    expect(keysOf({})).toEqual(['new'])
    expect(files.deleteExpired().deleted).toBe(1)
    expect(db.prepare('SELECT count(*) FROM files').pluck().get()).toBe(1)
  })

  it('limits an integration scope to its own files and those with the integrations policy', () => {
    files.upsert(input('bot-private'))
    files.upsert(input('bot-shared', { accessPolicies: ['integrations'] }))
    files.upsert(input('mine', { ownerScope: 'slack', owner: { type: 'integration', name: 'slack' } }))
    files.upsert(input('theirs', { ownerScope: 'teams', owner: { type: 'integration', name: 'teams' } }))
    const seen = files
      .list({ botId: BOT, scope: { kind: 'integration', integrationName: 'slack' }, sortField: 'key', sortDirection: 'asc', pageSize: 10 })
      .items.map((f) => f.key)
    expect(seen).toEqual(['bot-shared', 'mine'])
  })

  it.each<[FileSortField, 'asc' | 'desc']>([
    ['createdAt', 'desc'],
    ['key', 'asc'],
    ['size', 'desc'],
    ['status', 'asc'],
  ])('pages by %s %s without skipping or repeating items under concurrent inserts and deletes', (sortField, sortDirection) => {
    const survivors = new Set<string>()
    const doomed: string[] = []
    for (let i = 0; i < 30; i++) {
      const { file } = files.upsert(input(`f${String(i).padStart(2, '0')}`, { size: i % 4 }))
      if (i % 3 === 0) files.completeUpload(file.id, 1, { blobId: `blob_${i}`, size: i % 4, sha256: 'h' })
      if (i % 5 === 0) doomed.push(file.id)
      else survivors.add(file.id)
    }
    const seen: string[] = []
    let after
    let round = 0
    do {
      const page = files.list({ botId: BOT, scope: { kind: 'all' }, sortField, sortDirection, pageSize: 4, after })
      seen.push(...page.items.map((f) => f.id))
      after = page.next
      files.upsert(input(`new${round++}`, { size: 1 }))
      const victim = doomed.pop()
      if (victim) files.delete(victim)
    } while (after)
    const seenSurvivors = seen.filter((id) => survivors.has(id))
    expect(new Set(seen).size).toBe(seen.length)
    expect(new Set(seenSurvivors)).toEqual(survivors)
  })

  it('pages through distinct tag keys and values', () => {
    files.upsert(input('a', { tags: { k1: 'x', k2: 'y' } }))
    files.upsert(input('b', { tags: { k2: 'z', k3: 'y' } }))
    const first = files.listTagKeys({ botId: BOT, scope: { kind: 'all' }, pageSize: 2 })
    expect(first).toEqual({ items: ['k1', 'k2'], next: 'k2' })
    expect(files.listTagKeys({ botId: BOT, scope: { kind: 'all' }, pageSize: 2, after: 'k2' })).toEqual({ items: ['k3'] })
    expect(files.listTagValues({ botId: BOT, tag: 'k2', scope: { kind: 'all' }, pageSize: 5 })).toEqual({ items: ['y', 'z'] })
  })

  it('merge patches set and delete keys', () => {
    expect(mergePatch({ a: 1, b: 2 }, { b: null, c: 3 })).toEqual({ a: 1, c: 3 })
  })
})
