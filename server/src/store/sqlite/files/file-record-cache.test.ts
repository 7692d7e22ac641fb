import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { FileRecord, UpsertFileInput } from '../../files/index.js'
import { FileRecordCache } from './file-record-cache.js'
import { filesMigrations } from './migrations.js'
import { FilesRepository } from './files-port.js'
import { frozenFileRecord } from './frozen-file-record.js'
import { runMigrations } from '../migrations.js'
import { openDatabase, type Sqlite } from '../connect.js'

const BOT = 'bot_a'
const START = Date.parse('2026-11-25T00:00:00.000Z')

function input(key: string, extra: Partial<UpsertFileInput> = {}): UpsertFileInput {
  return {
    botId: BOT,
    key,
    ownerScope: '',
    owner: { type: 'bot', id: BOT },
    size: 3,
    contentType: 'text/plain',
    tags: { team: 'a' },
    metadata: { nested: { depth: [1, { deeper: true }] } },
    accessPolicies: ['integrations'],
    index: false,
    expiresAt: null,
    ...extra,
  }
}

/** Lets the event loop finish this callback (its ticks) and start another: a request after a commit comes in one. */
const nextCallback = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

describe('file records kept in memory on SQLite', () => {
  let dir: string
  let db: Sqlite
  let other: Sqlite
  let nowMs: number
  let files: FilesRepository

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'botshelf-file-records-'))
    db = openDatabase(join(dir, 'botshelf.db'))
    runMigrations(db, filesMigrations)
    db.exec('CREATE TABLE unrelated (id INTEGER PRIMARY KEY)')
    other = openDatabase(join(dir, 'botshelf.db'))
    nowMs = START
    files = new FilesRepository(db, () => new Date(nowMs))
  })

  afterEach(() => {
    other.close()
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })

  describe('through the repository', () => {
    it('answers a repeated read from memory: the very same record for getByKey, getById and getAnyById', () => {
      const { file } = files.upsert(input('a.txt'))
      const [first] = files.getByKey(BOT, 'a.txt')
      expect(first?.id).toBe(file.id)
      expect(files.getByKey(BOT, 'a.txt')[0]).toBe(first)
      const byId = files.getById(BOT, file.id)
      expect(files.getById(BOT, file.id)).toBe(byId)
      expect(files.getAnyById(file.id)).toBe(byId)
    })

    it('keeps the order of the files of one key (oldest first, then id) and the bot of an id', () => {
      const bot = files.upsert(input('a.txt')).file
      nowMs += 1000
      const integration = files.upsert(input('a.txt', { ownerScope: 'crm', owner: { type: 'integration', id: 'crm' } })).file
      for (let read = 0; read < 2; read++) expect(files.getByKey(BOT, 'a.txt').map((f) => f.id)).toEqual([bot.id, integration.id])
      expect(files.getByKey('bot_b', 'a.txt')).toEqual([])
      expect(files.getById(BOT, bot.id)?.id).toBe(bot.id)
      expect(files.getById('bot_b', bot.id)).toBeUndefined()
    })

    it('reads again after each of its own writes', () => {
      const { file } = files.upsert(input('a.txt'))
      const read = () => files.getByKey(BOT, 'a.txt')[0]
      expect(read()?.status).toBe('upload_pending')

      files.completeUpload(file.id, 1, { blobId: 'blob_1', size: 3, sha256: 'x' })
      expect(read()?.status).toBe('upload_completed')
      expect(files.getById(BOT, file.id)?.blobId).toBe('blob_1')

      files.updateMetadata(file.id, { tags: { team: 'b' }, metadata: { note: 'changed' } })
      expect(read()?.tags).toEqual({ team: 'b' })
      expect(files.getAnyById(file.id)?.metadata).toEqual({ nested: { depth: [1, { deeper: true }] }, note: 'changed' })

      files.upsert(input('a.txt', { size: 9 }))
      expect(read()).toMatchObject({ version: 2, declaredSize: 9, status: 'upload_pending' })

      files.failUpload(file.id, 2, 'too short')
      expect(read()).toMatchObject({ status: 'upload_failed', failedStatusReason: 'too short' })

      const indexing = files.requestIndexing(file.id)
      expect(read()).toMatchObject({ status: 'indexing_pending', indexGeneration: indexing.indexGeneration })
      files.finishIndexing(file.id, indexing.indexGeneration, { status: 'indexing_completed' })
      expect(read()).toMatchObject({ status: 'indexing_completed', indexingStack: 'v1' })

      files.delete(file.id)
      expect(read()).toBeUndefined()
      expect(files.getById(BOT, file.id)).toBeUndefined()
      expect(files.getAnyById(file.id)).toBeUndefined()
    })

    it('reads again after a write of its connection to another table entirely', () => {
      files.upsert(input('a.txt'))
      const [kept] = files.getByKey(BOT, 'a.txt')
      expect(files.getByKey(BOT, 'a.txt')[0]).toBe(kept)
      db.prepare('INSERT INTO unrelated DEFAULT VALUES').run()
      const [again] = files.getByKey(BOT, 'a.txt')
      expect(again).not.toBe(kept)
      expect(again).toEqual(kept)
    })

    it("sees another connection's commit from the next callback of the event loop (a command beside a running server)", async () => {
      const { file } = files.upsert(input('a.txt'))
      expect(files.getByKey(BOT, 'a.txt')[0]?.metadata).toEqual({ nested: { depth: [1, { deeper: true }] } })
      expect(files.getById(BOT, file.id)?.contentType).toBe('text/plain')
      other.prepare("UPDATE files SET metadata_json = '{\"by\":\"other\"}', content_type = 'text/csv'").run()
      await nextCallback()
      expect(files.getByKey(BOT, 'a.txt')[0]?.metadata).toEqual({ by: 'other' })
      expect(files.getById(BOT, file.id)?.contentType).toBe('text/csv')
      other.prepare('DELETE FROM files').run()
      await nextCallback()
      expect(files.getByKey(BOT, 'a.txt')).toEqual([])
      expect(files.getAnyById(file.id)).toBeUndefined()
    })

    it('neither answers from memory nor fills it inside a transaction', () => {
      files.upsert(input('a.txt'))
      const [before] = files.getByKey(BOT, 'a.txt')
      db.transaction(() => {
        const [inside] = files.getByKey(BOT, 'a.txt')
        expect(inside).not.toBe(before)
        expect(inside).toEqual(before)
      })()
      // The transaction wrote nothing: the record kept before it is still the answer, not the one read inside.
      expect(files.getByKey(BOT, 'a.txt')[0]).toBe(before)
    })

    it('never shows a change that was rolled back', () => {
      const { file } = files.upsert(input('a.txt'))
      expect(files.getByKey(BOT, 'a.txt')[0]?.tags).toEqual({ team: 'a' })
      expect(() =>
        db.transaction(() => {
          files.updateMetadata(file.id, { tags: { team: 'rolled back' } })
          const created = files.upsert(input('b.txt')).file
          expect(files.getByKey(BOT, 'a.txt')[0]?.tags).toEqual({ team: 'rolled back' })
          expect(files.getByKey(BOT, 'b.txt')).toHaveLength(1)
          expect(files.getAnyById(created.id)).toBeDefined()
          throw new Error('roll back')
        })(),
      ).toThrow('roll back')
      // Its writes moved total_changes and the rollback does not move it back: only not filling inside keeps these.
      expect(files.getByKey(BOT, 'a.txt')[0]?.tags).toEqual({ team: 'a' })
      expect(files.getByKey(BOT, 'b.txt')).toEqual([])
      expect(files.list({ botId: BOT, scope: { kind: 'all' }, sortField: 'key', sortDirection: 'asc', pageSize: 10 }).items).toHaveLength(1)
    })

    it('applies the expiry at each read with the clock, exactly like SQL, also when the clock moves back', () => {
      const expiresAt = new Date(START + 10_000).toISOString()
      const { file } = files.upsert(input('a.txt', { expiresAt }))
      const [kept] = files.getByKey(BOT, 'a.txt')
      expect(kept?.id).toBe(file.id)

      nowMs = START + 10_000 // expires_at > now is false at the very instant
      expect(files.getByKey(BOT, 'a.txt')).toEqual([])
      expect(files.getById(BOT, file.id)).toBeUndefined()
      expect(files.getAnyById(file.id)).toBeUndefined()

      nowMs = START + 9_999 // a fake clock moved back: SQL would find it again, and so does memory
      expect(files.getByKey(BOT, 'a.txt')[0]).toBe(kept)
      expect(files.getById(BOT, file.id)?.id).toBe(file.id)
      expect(files.getAnyById(file.id)?.id).toBe(file.id)
    })

    it('hands out records frozen all the way down', () => {
      const { file } = files.upsert(input('a.txt', { indexingConfiguration: { chunking: { maximumChunkLength: 800 } } }))
      for (const record of [files.getByKey(BOT, 'a.txt')[0]!, files.getById(BOT, file.id)!, files.getAnyById(file.id)!]) {
        expect(() => {
          record.status = 'upload_failed'
        }).toThrow(TypeError)
        expect(() => {
          record.tags.team = 'b'
        }).toThrow(TypeError)
        expect(() => {
          ;(record.metadata.nested as { depth: Array<{ deeper?: boolean }> }).depth[1]!.deeper = false
        }).toThrow(TypeError)
        expect(() => record.accessPolicies.push('public_content')).toThrow(TypeError)
        expect(() => {
          record.owner.id = 'someone else'
        }).toThrow(TypeError)
        expect(() => {
          ;(record.indexingConfiguration!.chunking as { maximumChunkLength: number }).maximumChunkLength = 1
        }).toThrow(TypeError)
      }
      // Inside a transaction too, so a caller behaves the same whether memory answered or not.
      db.transaction(() => {
        const record = files.getByKey(BOT, 'a.txt')[0]!
        expect(() => {
          record.tags.team = 'b'
        }).toThrow(TypeError)
      })()
      expect(files.getByKey(BOT, 'a.txt')[0]?.tags).toEqual({ team: 'a' })
    })
  })

  describe('FileRecordCache', () => {
    function counting<T>(value: () => T): { load: () => T; loads: () => number } {
      let loads = 0
      return {
        load: () => {
          loads++
          return value()
        },
        loads: () => loads,
      }
    }

    it('runs the loader once while nothing changes', () => {
      const cache = new FileRecordCache(db)
      const record = frozenFileRecord(rowOf(files.upsert(input('a.txt')).file))
      const ofKey = counting(() => [record])
      const ofId = counting(() => record)
      for (let i = 0; i < 3; i++) {
        expect(cache.filesOfKey(BOT, 'a.txt', ofKey.load)).toEqual([record])
        expect(cache.fileOfId(record.id, ofId.load)).toBe(record)
      }
      expect([ofKey.loads(), ofId.loads()]).toEqual([1, 1])
    })

    it('keeps a key and an id apart, and the same key of two bots apart', () => {
      const cache = new FileRecordCache(db)
      const record = frozenFileRecord(rowOf(files.upsert(input('a.txt')).file))
      cache.filesOfKey(BOT, 'a.txt', () => [record])
      expect(cache.fileOfId('a.txt', () => undefined)).toBeUndefined()
      expect(cache.filesOfKey('bot_', 'aa.txt', () => [])).toEqual([])
    })

    it('keeps no empty answer: an absent file is looked up again', () => {
      const cache = new FileRecordCache(db)
      const ofKey = counting(() => [])
      const ofId = counting(() => undefined)
      for (let i = 0; i < 2; i++) {
        cache.filesOfKey(BOT, 'missing', ofKey.load)
        cache.fileOfId('file_missing', ofId.load)
      }
      expect([ofKey.loads(), ofId.loads()]).toEqual([2, 2])
    })

    it("loads again after a write of its connection or a commit of another one, not after another's uncommitted write", async () => {
      const cache = new FileRecordCache(db)
      const record = frozenFileRecord(rowOf(files.upsert(input('a.txt')).file))
      const ofId = counting(() => record)
      cache.fileOfId(record.id, ofId.load)
      db.prepare('INSERT INTO unrelated DEFAULT VALUES').run()
      cache.fileOfId(record.id, ofId.load)
      expect(ofId.loads()).toBe(2)
      await nextCallback()
      other.exec('BEGIN IMMEDIATE')
      other.prepare('INSERT INTO unrelated DEFAULT VALUES').run()
      cache.fileOfId(record.id, ofId.load)
      expect(ofId.loads()).toBe(2)
      other.exec('COMMIT')
      await nextCallback()
      cache.fileOfId(record.id, ofId.load)
      expect(ofId.loads()).toBe(3)
    })

    it('stays correct past its capacity', () => {
      const cache = new FileRecordCache(db, 2)
      const record = frozenFileRecord(rowOf(files.upsert(input('a.txt')).file))
      const loads = ['one', 'two', 'three'].map(() => counting(() => [record]))
      loads.forEach((ofKey, index) => cache.filesOfKey(BOT, `key-${index}`, ofKey.load))
      loads.forEach((ofKey, index) => cache.filesOfKey(BOT, `key-${index}`, ofKey.load))
      // The third name found the memory full and cleared it: each name was read again on its second lookup.
      expect(loads.map((ofKey) => ofKey.loads())).toEqual([2, 2, 2])
    })
  })

  function rowOf(file: FileRecord) {
    return db.prepare('SELECT * FROM files WHERE id = ?').get(file.id) as Parameters<typeof frozenFileRecord>[0]
  }
})
