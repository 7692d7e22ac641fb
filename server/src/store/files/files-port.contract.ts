import { createHash } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { normalizeTagFilter, type TagFilter } from 'botshelf/api'
import type { Backend } from '../backend.js'
import type { Clock } from '../clock.js'
import type { FilesPort, KnowledgeBasesPort } from './files-port.js'
import type { FileListQuery, FilePosition, FileRecord, FileSortField, FilesAccessScope, KnowledgeBaseRecord, UpsertFileInput } from './types.js'

const START = Date.parse('2026-05-01T08:00:00.000Z')
const BOT = 'bot_files_a'
const OTHER_BOT = 'bot_files_b'
const ALL: FilesAccessScope = { kind: 'all' }

/** Milliseconds of an ISO time, so the suite does not depend on how a backend formats its strings. */
function ms(iso: string | null): number {
  if (iso === null) throw new Error('expected a time, received null')
  return Date.parse(iso)
}

/** A blob as a finished upload reports it. */
function blob(name: string, size = 5): { blobId: string; size: number; sha256: string } {
  return { blobId: `blob_${name}`, size, sha256: createHash('sha256').update(name).digest('hex') }
}

/** The definition of a bot file, with everything overridable. */
function definition(key: string, extra: Partial<UpsertFileInput> = {}): UpsertFileInput {
  return {
    botId: BOT,
    key,
    ownerScope: '',
    owner: { type: 'bot', id: extra.botId ?? BOT },
    size: 5,
    contentType: 'text/plain',
    tags: {},
    metadata: {},
    accessPolicies: [],
    index: false,
    expiresAt: null,
    ...extra,
  }
}

/** The definition of a file an integration owns (its own owner scope). */
function integrationFile(key: string, integrationName: string, extra: Partial<UpsertFileInput> = {}): UpsertFileInput {
  return definition(key, { ownerScope: integrationName, owner: { type: 'integration', name: integrationName }, ...extra })
}

const SORT_FIELDS: ReadonlyArray<FileSortField> = ['key', 'size', 'createdAt', 'updatedAt', 'status']

/** The sort value of a record for a field, comparable with `<` (times as milliseconds). */
function sortValue(file: FileRecord, field: FileSortField): string | number {
  switch (field) {
    case 'key':
      return file.key
    case 'size':
      if (file.size === null) throw new Error(`the size sort is checked on files with content; ${file.key} has none`)
      return file.size
    case 'createdAt':
      return ms(file.createdAt)
    case 'updatedAt':
      return ms(file.updatedAt)
    case 'status':
      return file.status
  }
}

/** Compares two records on (sort value, id) in a direction: negative when `a` comes first. */
function compareOn(field: FileSortField, direction: 'asc' | 'desc'): (a: FileRecord, b: FileRecord) => number {
  const sign = direction === 'asc' ? 1 : -1
  return (a, b) => {
    const va = sortValue(a, field)
    const vb = sortValue(b, field)
    if (va !== vb) return (va < vb ? -1 : 1) * sign
    if (a.id !== b.id) return (a.id < b.id ? -1 : 1) * sign
    return 0
  }
}

/**
 * Declares the behaviour every `FilesPort` and `KnowledgeBasesPort` backend must have (versions and uploads,
 * metadata merges, copies, blob bookkeeping, expiry, filtered and sorted keyset pages, tag listings, knowledge
 * bases), as vitest `describe`/`it` blocks written against the ports only. `open` gets the suite's clock (a fake
 * one it moves by hand) and returns a fresh, empty, migrated backend; `close` runs after each test.
 *
 * @example
 * ```ts
 * describeFilesPortContract('sqlite-memory', async (now) => {
 *   const backend = await openSqliteBackend({ memory: true, now })
 *   return { backend, close: () => backend.close() }
 * })
 * ```
 */
export function describeFilesPortContract(name: string, open: (now: Clock) => Promise<{ backend: Backend; close(): Promise<void> }>): void {
  describe(`FilesPort contract: ${name}`, () => {
    let current = START
    const now: Clock = () => new Date(current)
    const advance = (by: number): void => {
      current += by
    }
    const iso = (at: number): string => new Date(at).toISOString()
    let files: FilesPort
    let knowledgeBases: KnowledgeBasesPort
    let close: () => Promise<void>

    beforeEach(async () => {
      current = START
      // A backend that failed to open has nothing to close.
      close = async () => {}
      const opened = await open(now)
      files = opened.backend.files
      knowledgeBases = opened.backend.knowledgeBases
      close = opened.close
    })
    afterEach(async () => {
      await close()
    })
    /** Whether some row references one blob: the batch question asked about a batch of one. */
    const blobInUse = async (blobId: string): Promise<boolean> => (await files.blobsInUse([blobId])).has(blobId)

    /** Defines a file (no content yet). */
    async function define(input: UpsertFileInput): Promise<FileRecord> {
      return (await files.upsert(input)).file
    }

    /** Defines a file and commits its content, failing the test when the commit is refused. */
    async function withContent(input: UpsertFileInput, content = blob(`${input.botId}/${input.ownerScope}/${input.key}`, input.size)): Promise<FileRecord> {
      const file = await define(input)
      const result = await files.completeUpload(file.id, file.version, content)
      return result.file
    }

    /** Every file the query reaches, walking the pages. */
    async function listAll(query: Omit<FileListQuery, 'pageSize' | 'after'> & { pageSize?: number }): Promise<FileRecord[]> {
      const items: FileRecord[] = []
      let after: FilePosition | undefined
      for (let guard = 0; guard < 1_000; guard++) {
        const page = await files.list({ pageSize: 100, ...query, ...(after ? { after } : {}) })
        items.push(...page.items)
        if (!page.next) return items
        after = page.next
      }
      throw new Error('the pages never ended')
    }

    /** Keys of the bot's files matching a wire tag filter, in key order. */
    async function keysTagged(filter: TagFilter, scope: FilesAccessScope = ALL): Promise<string[]> {
      const items = await listAll({ botId: BOT, scope, tags: normalizeTagFilter(filter), sortField: 'key', sortDirection: 'asc' })
      return items.map((f) => f.key)
    }

    describe('upsert', () => {
      it('creates a file waiting for its upload, readable by id and by key', async () => {
        const input = definition('docs/a.txt', {
          size: 12,
          contentType: 'text/markdown',
          tags: { lang: 'en' },
          metadata: { source: 'crawler', depth: 2 },
          accessPolicies: ['public_content'],
          index: true,
          expiresAt: iso(START + 86_400_000),
        })
        const result = await files.upsert(input)
        expect(result.created).toBe(true)
        expect(result.unreferencedBlobIds).toEqual([])
        const file = result.file
        expect(file).toMatchObject({
          botId: BOT,
          key: 'docs/a.txt',
          ownerScope: '',
          owner: { type: 'bot', id: BOT },
          contentType: 'text/markdown',
          tags: { lang: 'en' },
          metadata: { source: 'crawler', depth: 2 },
          accessPolicies: ['public_content'],
          index: true,
          status: 'upload_pending',
          failedStatusReason: null,
          version: 1,
          declaredSize: 12,
          contentVersion: null,
          blobId: null,
          size: null,
          sha256: null,
          blobContentType: null,
        })
        expect(ms(file.expiresAt)).toBe(START + 86_400_000)
        expect(ms(file.createdAt)).toBe(START)
        expect(ms(file.updatedAt)).toBe(START)
        expect(file.id).toEqual(expect.any(String))
        expect(await files.getById(BOT, file.id)).toEqual(file)
        expect(await files.getAnyById(file.id)).toEqual(file)
        expect(await files.getByKey(BOT, 'docs/a.txt')).toEqual([file])
      })

      it('keeps bots apart: another bot neither reads the file by id nor by key', async () => {
        const file = await define(definition('a.txt'))
        expect(await files.getById(OTHER_BOT, file.id)).toBeUndefined()
        expect(await files.getByKey(OTHER_BOT, 'a.txt')).toEqual([])
        const theirs = await define(definition('a.txt', { botId: OTHER_BOT }))
        expect(theirs.id).not.toBe(file.id)
        expect(await files.getByKey(BOT, 'a.txt')).toEqual([file])
        expect(await files.getById('bot_missing', 'file_missing')).toBeUndefined()
        expect(await files.getAnyById('file_missing')).toBeUndefined()
      })

      it('starts a new version of the key: same file, definition replaced, pending, old content still readable', async () => {
        const first = await withContent(
          definition('a.txt', { tags: { lang: 'en', old: 'yes' }, metadata: { a: 1 }, accessPolicies: ['integrations'], index: true }),
          blob('v1', 5),
        )
        advance(1_000)
        const result = await files.upsert(
          definition('a.txt', { size: 9, contentType: 'application/json', tags: { lang: 'fr' }, metadata: { b: 2 }, accessPolicies: ['public_content'], index: false, expiresAt: iso(START + 60_000) }),
        )
        expect(result.created).toBe(false)
        expect(result.unreferencedBlobIds).toEqual([])
        const second = result.file
        expect(second).toMatchObject({
          id: first.id,
          version: 2,
          status: 'upload_pending',
          failedStatusReason: null,
          declaredSize: 9,
          contentType: 'application/json',
          tags: { lang: 'fr' },
          metadata: { b: 2 },
          accessPolicies: ['public_content'],
          index: false,
          // The previous content stays readable until the new upload completes.
          contentVersion: 1,
          blobId: 'blob_v1',
          size: 5,
          sha256: blob('v1').sha256,
          blobContentType: 'text/plain',
        })
        expect(ms(second.expiresAt)).toBe(START + 60_000)
        expect(ms(second.createdAt)).toBe(START)
        expect(ms(second.updatedAt)).toBe(START + 1_000)
        expect(await files.getById(BOT, first.id)).toEqual(second)
        // The tag index follows the new definition: the old tags are gone, not merged.
        expect(await keysTagged({ old: 'yes' })).toEqual([])
        expect(await keysTagged({ lang: 'en' })).toEqual([])
        expect(await keysTagged({ lang: 'fr' })).toEqual(['a.txt'])
        expect(await blobInUse('blob_v1')).toBe(true)
      })

      it('keeps one file per key and owner scope, listed by key oldest first', async () => {
        const bots = await define(definition('shared.txt'))
        advance(1_000)
        const slack = await define(integrationFile('shared.txt', 'slack'))
        advance(1_000)
        const teams = await define(integrationFile('shared.txt', 'teams'))
        expect(new Set([bots.id, slack.id, teams.id]).size).toBe(3)
        expect(slack).toMatchObject({ ownerScope: 'slack', owner: { type: 'integration', name: 'slack' } })
        expect((await files.getByKey(BOT, 'shared.txt')).map((f) => f.id)).toEqual([bots.id, slack.id, teams.id])
        const again = await files.upsert(integrationFile('shared.txt', 'slack'))
        expect(again).toMatchObject({ created: false, file: { id: slack.id, version: 2 } })
      })

      it('shows a check the unexpired file of its own owner scope, and writes nothing when the check refuses', async () => {
        const seen: Array<FileRecord | undefined> = []
        const record = (existing: FileRecord | undefined): void => void seen.push(existing)
        await files.upsert(integrationFile('c.txt', 'slack'), record)
        expect(seen).toEqual([undefined])
        const bots = await define(definition('c.txt', { tags: { lang: 'en' } }))
        const again = await files.upsert(definition('c.txt', { size: 7 }), record)
        // The check may first be asked about no file (a port may try to create the row before reading it); the answer
        // that decides is the one about the file the key holds.
        expect(seen.at(-1)).toMatchObject({ id: bots.id, version: 1, ownerScope: '', tags: { lang: 'en' } })
        expect(seen.slice(1, -1)).toEqual(seen.length > 2 ? [undefined] : [])
        expect(again).toMatchObject({ created: false, file: { id: bots.id, version: 2, declaredSize: 7 } })

        const refusal = new Error('this caller may not replace the file')
        const refuse = (): void => {
          throw refusal
        }
        await expect(files.upsert(definition('c.txt', { size: 99, tags: { lang: 'fr' } }), refuse)).rejects.toBe(refusal)
        await expect(files.upsert(definition('new.txt'), refuse)).rejects.toBe(refusal)
        expect(await files.getById(BOT, bots.id)).toMatchObject({ version: 2, declaredSize: 7, tags: {} })
        expect(await files.getByKey(BOT, 'new.txt')).toEqual([])
        expect(await keysTagged({ lang: 'fr' })).toEqual([])
      })

      it('shows a check no file when the one at the key has expired', async () => {
        await define(definition('old.txt', { expiresAt: iso(START + 1_000) }))
        advance(1_000)
        const seen: Array<FileRecord | undefined> = []
        const result = await files.upsert(definition('old.txt'), (existing) => void seen.push(existing))
        expect(seen).toEqual([undefined])
        expect(result).toMatchObject({ created: true, file: { version: 1 } })
      })

      it('numbers versions one by one across many upserts', async () => {
        let file = await define(definition('v.txt'))
        for (let version = 2; version <= 5; version++) {
          advance(10)
          file = (await files.upsert(definition('v.txt', { size: version }))).file
          expect(file).toMatchObject({ version, declaredSize: version, contentVersion: null })
        }
      })
    })

    describe('usage', () => {
      it('counts the files holding content and their sizes per set of bots; a new version replaces the old size, a deletion frees it', async () => {
        expect(await files.usage([BOT])).toEqual({ files: 0, contentBytes: 0 })
        await define(definition('pending.txt', { size: 50 })) // no content yet: counts nothing
        const a = await withContent(definition('a.txt', { size: 7 }), blob('a', 7))
        await withContent(definition('b.txt', { size: 5 }), blob('b', 5))
        await withContent(definition('other.txt', { botId: OTHER_BOT, size: 11 }), blob('o', 11))
        expect(await files.usage([BOT])).toEqual({ files: 2, contentBytes: 12 })
        expect(await files.usage([BOT, OTHER_BOT])).toEqual({ files: 3, contentBytes: 23 })
        expect(await files.usage([])).toEqual({ files: 0, contentBytes: 0 })

        const { file: v2 } = await files.upsert(definition('a.txt', { size: 3 }))
        await files.completeUpload(a.id, v2.version, blob('a2', 3))
        expect(await files.usage([BOT])).toEqual({ files: 2, contentBytes: 8 })
        await files.delete(a.id)
        expect(await files.usage([BOT])).toEqual({ files: 1, contentBytes: 5 })
      })
    })

    describe('completeUpload', () => {
      it('makes the blob the readable content of the version', async () => {
        const file = await define(definition('a.txt', { contentType: 'image/png', size: 7 }))
        advance(1_500)
        const result = await files.completeUpload(file.id, 1, blob('a', 7))
        expect(result).toMatchObject({ unreferencedBlobId: null })
        expect(result.file).toMatchObject({
          id: file.id,
          status: 'upload_completed',
          failedStatusReason: null,
          version: 1,
          contentVersion: 1,
          blobId: 'blob_a',
          size: 7,
          sha256: blob('a').sha256,
          blobContentType: 'image/png',
        })
        expect(ms(result.file.updatedAt)).toBe(START + 1_500)
        expect(ms(result.file.createdAt)).toBe(START)
        expect(await files.getById(BOT, file.id)).toEqual(result.file)
        expect(await blobInUse('blob_a')).toBe(true)
      })

      it('releases the previous content when a new version replaces it', async () => {
        const v1 = await withContent(definition('a.txt'), blob('one'))
        const { file: v2 } = await files.upsert(definition('a.txt', { contentType: 'text/csv' }))
        const result = await files.completeUpload(v1.id, v2.version, blob('two', 8))
        expect(result).toMatchObject({ unreferencedBlobId: 'blob_one', file: { contentVersion: 2, blobId: 'blob_two', size: 8, blobContentType: 'text/csv' } })
        expect(await blobInUse('blob_one')).toBe(false)
        expect(await blobInUse('blob_two')).toBe(true)
      })

      it('keeps the previous content when another file still references it, or when the blob is the same', async () => {
        const original = await withContent(definition('a.txt'), blob('shared'))
        await files.copy(original, { botId: BOT, key: 'copy.txt', ownerScope: '', owner: { type: 'bot', id: BOT } }, undefined)
        const { file: v2 } = await files.upsert(definition('a.txt'))
        expect(await files.completeUpload(original.id, v2.version, blob('new'))).toMatchObject({ unreferencedBlobId: null })
        expect(await blobInUse('blob_shared')).toBe(true)

        const { file: v3 } = await files.upsert(definition('a.txt'))
        expect(await files.completeUpload(original.id, v3.version, blob('new'))).toMatchObject({ unreferencedBlobId: null })
        expect(await blobInUse('blob_new')).toBe(true)
      })

      it('answers which of a batch of blobs some file references, in one call', async () => {
        const original = await withContent(definition('a.txt'), blob('shared'))
        await files.copy(original, { botId: BOT, key: 'copy.txt', ownerScope: '', owner: { type: 'bot', id: BOT } }, undefined)
        await withContent(definition('b.txt'), blob('other'))
        const { file: replaced } = await files.upsert(definition('b.txt'))
        await files.completeUpload(replaced.id, replaced.version, blob('newer'))
        // A blob two files share is named once; a replaced one and an unknown one are not named at all.
        expect([...(await files.blobsInUse(['blob_shared', 'blob_other', 'blob_newer', 'blob_unknown', 'blob_shared']))].sort()).toEqual(['blob_newer', 'blob_shared'])
        expect(await files.blobsInUse([])).toEqual(new Set())
      })

      it('refuses a version that a newer upsert superseded, changing nothing', async () => {
        const v1 = await define(definition('a.txt'))
        const { file: v2 } = await files.upsert(definition('a.txt', { size: 6 }))
        await expect(files.completeUpload(v1.id, 1, blob('late'))).rejects.toMatchObject({ name: 'FilesStoreError', code: 'VERSION_SUPERSEDED', type: 'ResourceGone' })
        expect(await files.getById(BOT, v1.id)).toEqual(v2)
        expect(await blobInUse('blob_late')).toBe(false)
        await expect(files.completeUpload(v1.id, 3, blob('future'))).rejects.toMatchObject({ code: 'VERSION_SUPERSEDED' })
      })

      it('refuses a deleted or unknown file as gone', async () => {
        const file = await define(definition('a.txt'))
        await files.delete(file.id)
        await expect(files.completeUpload(file.id, 1, blob('late'))).rejects.toMatchObject({ name: 'FilesStoreError', code: 'FILE_GONE', type: 'ResourceNotFound' })
        await expect(files.completeUpload('file_missing', 1, blob('x'))).rejects.toMatchObject({ code: 'FILE_GONE' })
        expect(await blobInUse('blob_late')).toBe(false)
      })
    })

    describe('failUpload', () => {
      it('marks the latest version failed with its reason; the previous content stays readable', async () => {
        const v1 = await withContent(definition('a.txt'), blob('one'))
        const { file: v2 } = await files.upsert(definition('a.txt'))
        advance(700)
        const failed = await files.failUpload(v1.id, v2.version, 'content has 3 bytes but 5 were declared')
        expect(failed).toMatchObject({
          id: v1.id,
          status: 'upload_failed',
          failedStatusReason: 'content has 3 bytes but 5 were declared',
          version: 2,
          contentVersion: 1,
          blobId: 'blob_one',
        })
        expect(ms(failed!.updatedAt)).toBe(START + 700)
        expect(await files.getById(BOT, v1.id)).toEqual(failed)
      })

      it('ignores a superseded version, a version whose content landed, and an unknown file', async () => {
        const file = await define(definition('a.txt'))
        await files.upsert(definition('a.txt'))
        expect(await files.failUpload(file.id, 1, 'too late')).toBeUndefined()
        expect(await files.getById(BOT, file.id)).toMatchObject({ status: 'upload_pending', failedStatusReason: null })

        const done = await files.completeUpload(file.id, 2, blob('two'))
        expect(done.file.blobId).toBe('blob_two')
        expect(await files.failUpload(file.id, 2, 'a retry failed')).toBeUndefined()
        expect(await files.getById(BOT, file.id)).toMatchObject({ status: 'upload_completed', failedStatusReason: null, blobId: 'blob_two' })

        expect(await files.failUpload('file_missing', 1, 'x')).toBeUndefined()
      })

      it('lets a retry of the failed version complete, and a new version clears the failure', async () => {
        const file = await define(definition('a.txt'))
        await files.failUpload(file.id, 1, 'connection reset')
        const retried = await files.completeUpload(file.id, 1, blob('retry'))
        expect(retried).toMatchObject({ file: { status: 'upload_completed', failedStatusReason: null, blobId: 'blob_retry' } })

        const { file: v2 } = await files.upsert(definition('a.txt'))
        await files.failUpload(file.id, 2, 'bad checksum')
        const { file: v3 } = await files.upsert(definition('a.txt'))
        expect(v3).toMatchObject({ version: v2.version + 1, status: 'upload_pending', failedStatusReason: null, blobId: 'blob_retry' })
      })
    })

    describe('updateMetadata', () => {
      it('merges metadata and tags (null deletes), replaces policies, and leaves content and version alone', async () => {
        const file = await withContent(
          definition('a.txt', { metadata: { a: 1, b: 'two', keep: true }, tags: { lang: 'en', topic: 'sales' }, accessPolicies: ['public_content'] }),
          blob('a'),
        )
        advance(3_000)
        const updated = await files.updateMetadata(file.id, {
          metadata: { b: null, c: [1, 2], a: 10 },
          tags: { topic: null, team: 'emea' },
          accessPolicies: ['integrations'],
        })
        expect(updated).toEqual({
          ...file,
          metadata: { a: 10, keep: true, c: [1, 2] },
          tags: { lang: 'en', team: 'emea' },
          accessPolicies: ['integrations'],
          updatedAt: updated.updatedAt,
        })
        expect(ms(updated.updatedAt)).toBe(START + 3_000)
        expect(await files.getById(BOT, file.id)).toEqual(updated)
        expect(await keysTagged({ topic: { exists: true } })).toEqual([])
        expect(await keysTagged({ team: 'emea' })).toEqual(['a.txt'])
        expect(await keysTagged({ lang: 'en' })).toEqual(['a.txt'])
        expect((await files.list({ botId: BOT, scope: { kind: 'integration', integrationName: 'slack' }, sortField: 'key', sortDirection: 'asc', pageSize: 10 })).items).toEqual([updated])
      })

      it('keeps what the patch leaves out, and an empty policy list removes every policy', async () => {
        const file = await define(definition('a.txt', { metadata: { a: 1 }, tags: { lang: 'en' }, accessPolicies: ['integrations'], expiresAt: iso(START + 10_000) }))
        const same = await files.updateMetadata(file.id, {})
        expect({ ...same, updatedAt: file.updatedAt }).toEqual(file)
        const cleared = await files.updateMetadata(file.id, { accessPolicies: [] })
        expect(cleared).toMatchObject({ accessPolicies: [], metadata: { a: 1 }, tags: { lang: 'en' } })
        expect(ms(cleared.expiresAt)).toBe(START + 10_000)
        expect((await files.list({ botId: BOT, scope: { kind: 'integration', integrationName: 'slack' }, sortField: 'key', sortDirection: 'asc', pageSize: 10 })).items).toEqual([])
      })

      it('sets, moves and removes the expiry', async () => {
        const file = await define(definition('a.txt'))
        const expiring = await files.updateMetadata(file.id, { expiresAt: iso(START + 1_000) })
        expect(ms(expiring.expiresAt)).toBe(START + 1_000)
        const kept = await files.updateMetadata(file.id, { expiresAt: null })
        expect(kept.expiresAt).toBeNull()
        advance(5_000)
        expect(await files.getById(BOT, file.id)).toEqual(kept)
        expect(await files.deleteExpired()).toEqual({ deleted: 0, files: [], unreferencedBlobIds: [] })
      })
    })

    describe('copy', () => {
      it('copies the definition and shares the content blob, to a new file of its own', async () => {
        const source = await withContent(
          definition('src.txt', { contentType: 'text/csv', tags: { lang: 'en' }, metadata: { a: 1 }, accessPolicies: ['integrations'], index: true }),
          blob('src', 11),
        )
        await files.upsert(definition('src.txt', { contentType: 'text/csv', tags: { lang: 'en' }, metadata: { a: 1 }, accessPolicies: ['integrations'], index: true }))
        const latest = (await files.getById(BOT, source.id))!
        advance(2_000)
        const { file: copy, unreferencedBlobIds } = await files.copy(latest, { botId: BOT, key: 'dst.txt', ownerScope: 'slack', owner: { type: 'integration', name: 'slack' } }, undefined)
        expect(unreferencedBlobIds).toEqual([])
        expect(copy.id).not.toBe(source.id)
        expect(copy).toMatchObject({
          botId: BOT,
          key: 'dst.txt',
          ownerScope: 'slack',
          owner: { type: 'integration', name: 'slack' },
          contentType: 'text/csv',
          tags: { lang: 'en' },
          metadata: { a: 1 },
          accessPolicies: ['integrations'],
          index: true,
          // The copy has content of its own to index: it waits for its own indexing (generation 1).
          status: 'indexing_pending',
          indexGeneration: 1,
          failedStatusReason: null,
          version: 1,
          contentVersion: 1,
          blobId: 'blob_src',
          size: 11,
          sha256: blob('src').sha256,
        })
        expect(ms(copy.createdAt)).toBe(START + 2_000)
        expect(ms(copy.updatedAt)).toBe(START + 2_000)
        expect(await files.getById(BOT, copy.id)).toEqual(copy)
        expect(await keysTagged({ lang: 'en' })).toEqual(['dst.txt', 'src.txt'])
        // The source is untouched.
        expect(await files.getById(BOT, source.id)).toEqual(latest)
      })

      it('copies into another bot', async () => {
        const source = await withContent(definition('a.txt'), blob('a'))
        const { file } = await files.copy(source, { botId: OTHER_BOT, key: 'b.txt', ownerScope: '', owner: { type: 'bot', id: OTHER_BOT } }, undefined)
        expect(file).toMatchObject({ botId: OTHER_BOT, key: 'b.txt', blobId: 'blob_a' })
        expect(await files.getById(OTHER_BOT, file.id)).toEqual(file)
        expect(await files.getById(BOT, file.id)).toBeUndefined()
      })

      it('replaces the destination file, releasing its blob unless still referenced', async () => {
        const source = await withContent(definition('src.txt'), blob('src'))
        const target = await withContent(definition('dst.txt'), blob('dst'))
        const { file: copy, unreferencedBlobIds } = await files.copy(source, { botId: BOT, key: 'dst.txt', ownerScope: '', owner: { type: 'bot', id: BOT } }, target)
        expect(unreferencedBlobIds).toEqual(['blob_dst'])
        expect(await files.getById(BOT, target.id)).toBeUndefined()
        expect(await files.getByKey(BOT, 'dst.txt')).toEqual([copy])
        expect(await blobInUse('blob_dst')).toBe(false)

        // Copying over a file whose blob is the source's releases nothing.
        const again = await files.copy(source, { botId: BOT, key: 'dst.txt', ownerScope: '', owner: { type: 'bot', id: BOT } }, copy)
        expect(again.unreferencedBlobIds).toEqual([])
        expect(await files.getByKey(BOT, 'dst.txt')).toEqual([again.file])
        expect(await blobInUse('blob_src')).toBe(true)
      })

      it('copies a file without content as a definition without content', async () => {
        const source = await define(definition('pending.txt', { tags: { a: 'b' } }))
        const { file } = await files.copy(source, { botId: BOT, key: 'copy.txt', ownerScope: '', owner: { type: 'bot', id: BOT } }, undefined)
        expect(file).toMatchObject({ key: 'copy.txt', status: 'upload_pending', blobId: null, contentVersion: null, tags: { a: 'b' } })
      })
    })

    describe('delete and blobs', () => {
      it('deletes a file and returns its blob when no other file references it', async () => {
        const file = await withContent(definition('a.txt'), blob('a'))
        expect(await files.delete(file.id)).toEqual(['blob_a'])
        expect(await files.getById(BOT, file.id)).toBeUndefined()
        expect(await files.getByKey(BOT, 'a.txt')).toEqual([])
        expect(await blobInUse('blob_a')).toBe(false)
        expect(await keysTagged({})).toEqual([])
        expect(await files.delete(file.id)).toEqual([])
      })

      it('keeps a shared blob until its last file is deleted', async () => {
        const source = await withContent(definition('a.txt'), blob('shared'))
        const { file: copy } = await files.copy(source, { botId: OTHER_BOT, key: 'a.txt', ownerScope: '', owner: { type: 'bot', id: OTHER_BOT } }, undefined)
        expect(await files.delete(source.id)).toEqual([])
        expect(await blobInUse('blob_shared')).toBe(true)
        expect(await files.delete(copy.id)).toEqual(['blob_shared'])
        expect(await blobInUse('blob_shared')).toBe(false)
      })

      it('returns no blob for a file that never had content, or an unknown id', async () => {
        const file = await define(definition('a.txt'))
        expect(await files.delete(file.id)).toEqual([])
        expect(await files.delete('file_missing')).toEqual([])
        expect(await blobInUse('blob_never')).toBe(false)
      })

      it('frees the key: defining it again creates a new file', async () => {
        const file = await define(definition('a.txt'))
        await files.delete(file.id)
        const { file: again, created } = await files.upsert(definition('a.txt'))
        expect(created).toBe(true)
        expect(again).toMatchObject({ version: 1 })
        expect(again.id).not.toBe(file.id)
      })
    })

    describe('expiry', () => {
      it('hides a file from every read once its expiry passes, by the backend clock', async () => {
        const file = await withContent(definition('a.txt', { tags: { lang: 'en' }, expiresAt: iso(START + 1_000) }), blob('a'))
        const readers = async () => ({
          byId: await files.getById(BOT, file.id),
          anyId: await files.getAnyById(file.id),
          byKey: await files.getByKey(BOT, 'a.txt'),
          list: (await files.list({ botId: BOT, scope: ALL, sortField: 'key', sortDirection: 'asc', pageSize: 10 })).items,
          keys: (await files.listTagKeys({ botId: BOT, scope: ALL, pageSize: 10 })).items,
          values: (await files.listTagValues({ botId: BOT, tag: 'lang', scope: ALL, pageSize: 10 })).items,
        })
        advance(999)
        expect(await readers()).toEqual({ byId: file, anyId: file, byKey: [file], list: [file], keys: ['lang'], values: ['en'] })
        advance(1)
        expect(await readers()).toEqual({ byId: undefined, anyId: undefined, byKey: [], list: [], keys: [], values: [] })
        // The row still references its blob until it is swept.
        expect(await blobInUse('blob_a')).toBe(true)
      })

      it('deleteExpired removes the expired files only and returns their blobs', async () => {
        const gone = await withContent(definition('gone.txt', { expiresAt: iso(START + 1_000) }), blob('gone'))
        // A copy that expires with it: their shared blob is released once, after both rows are gone.
        await files.copy(gone, { botId: OTHER_BOT, key: 'gone.txt', ownerScope: '', owner: { type: 'bot', id: OTHER_BOT } }, undefined)
        await define(definition('pending.txt', { expiresAt: iso(START + 500) }))
        const later = await withContent(definition('later.txt', { expiresAt: iso(START + 10_000) }), blob('later'))
        const forever = await withContent(definition('forever.txt'), blob('forever'))
        await files.copy(forever, { botId: BOT, key: 'shares.txt', ownerScope: '', owner: { type: 'bot', id: BOT } }, undefined)
        const sharing = (await files.getByKey(BOT, 'shares.txt'))[0]!
        await files.updateMetadata(sharing.id, { expiresAt: iso(START + 1_000) })

        expect(await files.deleteExpired()).toEqual({ deleted: 0, files: [], unreferencedBlobIds: [] })
        advance(1_000)
        const swept = await files.deleteExpired()
        expect(swept.deleted).toBe(4)
        // The expired files as they were, for their `file.deleted` events.
        expect(swept.files.map((file) => file.key).sort()).toEqual(['gone.txt', 'gone.txt', 'pending.txt', 'shares.txt'])
        expect(swept.unreferencedBlobIds).toEqual(['blob_gone'])
        expect(await blobInUse('blob_gone')).toBe(false)
        expect(await blobInUse('blob_forever')).toBe(true)
        expect(await files.getById(BOT, gone.id)).toBeUndefined()
        expect(await files.getByKey(OTHER_BOT, 'gone.txt')).toEqual([])
        expect(await files.getById(BOT, later.id)).toEqual(later)
        expect(await files.deleteExpired()).toEqual({ deleted: 0, files: [], unreferencedBlobIds: [] })
        expect((await listAll({ botId: BOT, scope: ALL, sortField: 'key', sortDirection: 'asc' })).map((f) => f.key)).toEqual(['forever.txt', 'later.txt'])
      })

      it('lets a new file take the key of an expired one, releasing the expired content', async () => {
        const expired = await withContent(definition('a.txt', { expiresAt: iso(START + 1_000) }), blob('old'))
        advance(1_000)
        const result = await files.upsert(definition('a.txt'))
        expect(result.created).toBe(true)
        expect(result.unreferencedBlobIds).toEqual(['blob_old'])
        expect(result.file.id).not.toBe(expired.id)
        expect(result.file).toMatchObject({ version: 1, blobId: null, expiresAt: null })
        expect(await files.getByKey(BOT, 'a.txt')).toEqual([result.file])
      })
    })

    describe('list filters', () => {
      it('filters by tags: equality, OR over values, not, in, exists, several keys ANDed', async () => {
        await define(definition('a', { tags: { lang: 'en', topic: 'sales' } }))
        await define(definition('b', { tags: { lang: 'fr' } }))
        await define(definition('c', { tags: { lang: 'de', topic: 'hr' } }))
        await define(definition('d'))
        await define(definition('e', { botId: OTHER_BOT, tags: { lang: 'en', topic: 'sales' } }))
        expect(await keysTagged({ lang: 'en' })).toEqual(['a'])
        expect(await keysTagged({ lang: ['en', 'fr'] })).toEqual(['a', 'b'])
        expect(await keysTagged({ lang: { not: 'en' } })).toEqual(['b', 'c', 'd'])
        expect(await keysTagged({ lang: { not: ['en', 'fr'] } })).toEqual(['c', 'd'])
        expect(await keysTagged({ lang: { in: ['de', 'fr'] } })).toEqual(['b', 'c'])
        expect(await keysTagged({ lang: { in: 'de' } })).toEqual(['c'])
        expect(await keysTagged({ topic: { exists: true } })).toEqual(['a', 'c'])
        expect(await keysTagged({ topic: { exists: false } })).toEqual(['b', 'd'])
        expect(await keysTagged({ lang: ['en', 'de'], topic: 'hr' })).toEqual(['c'])
        expect(await keysTagged({ lang: { in: ['en', 'de'], not: 'de' } })).toEqual(['a'])
        expect(await keysTagged({ lang: { exists: true, not: 'fr' }, topic: { not: 'hr' } })).toEqual(['a'])
        expect(await keysTagged({ lang: [] })).toEqual([])
        expect(await keysTagged({ missing: 'x' })).toEqual([])
        expect(await keysTagged({})).toEqual(['a', 'b', 'c', 'd'])
      })

      it('matches tag values exactly: case, spaces and look-alike values count', async () => {
        await define(definition('a', { tags: { name: 'Sales' } }))
        await define(definition('b', { tags: { name: 'sales' } }))
        await define(definition('c', { tags: { name: 'sales ' } }))
        await define(definition('d', { tags: { name: "it's 50% off_" } }))
        expect(await keysTagged({ name: 'sales' })).toEqual(['b'])
        expect(await keysTagged({ name: "it's 50% off_" })).toEqual(['d'])
        expect(await keysTagged({ name: '%' })).toEqual([])
        expect(await keysTagged({ Name: 'Sales' })).toEqual([])
      })

      it('filters by ids (only the bot\'s files) and by the index flag', async () => {
        const a = await define(definition('a', { index: true }))
        const b = await define(definition('b'))
        const c = await define(definition('c', { index: true }))
        const theirs = await define(definition('x', { botId: OTHER_BOT, index: true }))
        const keys = async (query: Partial<FileListQuery>) => (await listAll({ botId: BOT, scope: ALL, sortField: 'key', sortDirection: 'asc', ...query })).map((f) => f.key)
        expect(await keys({ ids: [c.id, a.id, 'file_missing'] })).toEqual(['a', 'c'])
        expect(await keys({ ids: [] })).toEqual([])
        expect(await keys({ ids: [theirs.id] })).toEqual([])
        expect(await keys({ indexed: true })).toEqual(['a', 'c'])
        expect(await keys({ indexed: false })).toEqual(['b'])
        expect(await keys({ ids: [a.id, b.id], indexed: false })).toEqual(['b'])
      })

      it('shows an integration its own files and the files with the integrations policy', async () => {
        await define(definition('bot-private'))
        await define(definition('bot-shared', { accessPolicies: ['integrations'] }))
        await define(definition('user-file', { owner: { type: 'user', id: 'user_1' } }))
        await define(integrationFile('slack-own', 'slack', { tags: { from: 'slack' } }))
        await define(integrationFile('teams-own', 'teams', { tags: { from: 'teams' } }))
        await define(integrationFile('teams-shared', 'teams', { accessPolicies: ['integrations', 'public_content'] }))
        const slack: FilesAccessScope = { kind: 'integration', integrationName: 'slack' }
        expect(await keysTagged({}, slack)).toEqual(['bot-shared', 'slack-own', 'teams-shared'])
        expect(await keysTagged({}, { kind: 'integration', integrationName: 'teams' })).toEqual(['bot-shared', 'teams-own', 'teams-shared'])
        expect(await keysTagged({}, { kind: 'integration', integrationName: 'github' })).toEqual(['bot-shared', 'teams-shared'])
        expect(await keysTagged({}, ALL)).toEqual(['bot-private', 'bot-shared', 'slack-own', 'teams-own', 'teams-shared', 'user-file'])
        expect(await keysTagged({ from: { exists: true } }, slack)).toEqual(['slack-own'])
      })
    })

    describe('list sorting and keyset pages', () => {
      /**
       * Nine files with ties on every sort field: equal keys in two owner scopes, equal sizes, equal creation and
       * update times, every status.
       */
      async function sortFixture(): Promise<FileRecord[]> {
        const made: FileRecord[] = []
        const add = async (input: UpsertFileInput, size: number, outcome: 'complete' | 'fail' | 'repend' = 'complete') => {
          const file = await withContent({ ...input, size }, blob(`${input.ownerScope}/${input.key}`, size))
          if (outcome === 'fail') await files.failUpload(file.id, (await files.upsert({ ...input, size })).file.version, 'broken')
          if (outcome === 'repend') await files.upsert({ ...input, size })
          made.push(file)
        }
        await add(definition('m'), 3)
        await add(definition('b'), 1, 'fail')
        await add(integrationFile('b', 'slack'), 3)
        advance(1_000)
        await add(definition('z'), 2, 'repend')
        await add(definition('a'), 1)
        advance(1_000)
        await add(definition('k'), 3)
        await add(integrationFile('k', 'teams'), 2, 'fail')
        await add(definition('c'), 5)
        advance(1_000)
        await add(definition('y'), 1, 'repend')
        advance(1_000)
        return Promise.all(made.map(async (f) => (await files.getById(BOT, f.id))!))
      }

      it('returns every file exactly once with the next position only while more remain', async () => {
        const all = await sortFixture()
        const first = await files.list({ botId: BOT, scope: ALL, sortField: 'key', sortDirection: 'asc', pageSize: 4 })
        expect(first.items).toHaveLength(4)
        expect(first.next).toBeDefined()
        const second = await files.list({ botId: BOT, scope: ALL, sortField: 'key', sortDirection: 'asc', pageSize: 5, after: first.next! })
        expect(second.items).toHaveLength(5)
        expect(second.next).toBeUndefined()
        expect(new Set([...first.items, ...second.items].map((f) => f.id))).toEqual(new Set(all.map((f) => f.id)))
        const whole = await files.list({ botId: BOT, scope: ALL, sortField: 'key', sortDirection: 'asc', pageSize: all.length })
        expect(whole.items).toHaveLength(all.length)
        expect(whole.next).toBeUndefined()
      })

      for (const field of SORT_FIELDS) {
        for (const direction of ['asc', 'desc'] as const) {
          it(`sorts on ${field} ${direction} with the id as tie-breaker, and pages never skip or repeat a file while others come and go`, async () => {
            const all = await sortFixture()
            const compare = compareOn(field, direction)
            const expected = [...all].sort(compare)
            const oneQuery = await files.list({ botId: BOT, scope: ALL, sortField: field, sortDirection: direction, pageSize: 50 })
            expect(oneQuery.items.map((f) => f.key)).toEqual(expected.map((f) => f.key))
            expect(oneQuery.items.map((f) => f.id)).toEqual(expected.map((f) => f.id))

            // Walk in pages of 2, inserting and deleting files between pages.
            const seen: FileRecord[] = []
            const deleted = new Set<string>()
            let after: FilePosition | undefined
            for (let page = 0; page < 50; page++) {
              const result = await files.list({ botId: BOT, scope: ALL, sortField: field, sortDirection: direction, pageSize: 2, ...(after ? { after } : {}) })
              expect(result.items.length).toBeLessThanOrEqual(2)
              seen.push(...result.items)
              if (!result.next) break
              after = result.next
              advance(250)
              // A newcomer on each side of the cursor, and one file deleted ahead of the walk and one behind it.
              const sizes = [1, 4]
              for (const [i, key] of [`a${page}`, `zz${page}`].entries()) await withContent(definition(key), blob(`new-${key}`, sizes[i]!))
              const ahead = expected.find((f) => !deleted.has(f.id) && !seen.some((s) => s.id === f.id) && !result.items.some((s) => s.id === f.id))
              const behind = seen.find((f) => !deleted.has(f.id))
              for (const victim of [ahead, behind]) {
                if (!victim || deleted.has(victim.id)) continue
                deleted.add(victim.id)
                await files.delete(victim.id)
              }
            }
            const seenIds = seen.map((f) => f.id)
            expect(new Set(seenIds).size).toBe(seenIds.length)
            // Each page starts strictly after the last item: the walk is one sorted sequence.
            for (let i = 1; i < seen.length; i++) expect(compare(seen[i - 1]!, seen[i]!)).toBeLessThan(0)
            // Every file that existed during the whole walk was seen.
            for (const file of all) if (!deleted.has(file.id)) expect(seenIds).toContain(file.id)
          })
        }
      }

      it('pages the same way within a filter and a scope', async () => {
        for (let i = 0; i < 7; i++) {
          await define(integrationFile(`f${i}`, 'slack', { tags: { n: String(i % 2) } }))
          await define(definition(`g${i}`, { tags: { n: String(i % 2) } }))
        }
        const slack: FilesAccessScope = { kind: 'integration', integrationName: 'slack' }
        const items = await listAll({ botId: BOT, scope: slack, tags: normalizeTagFilter({ n: '1' }), sortField: 'createdAt', sortDirection: 'desc', pageSize: 2 })
        expect(items.map((f) => f.key).sort()).toEqual(['f1', 'f3', 'f5'])
      })
    })

    describe('tag keys and values', () => {
      beforeEach(async () => {
        await define(definition('a', { tags: { lang: 'en', topic: 'sales' } }))
        await define(definition('b', { tags: { lang: 'fr', team: 'emea' } }))
        await define(definition('c', { tags: { lang: 'en', zone: 'eu' } }))
        await define(integrationFile('d', 'slack', { tags: { channel: 'general', lang: 'de' } }))
        await define(definition('e', { tags: { lang: 'it', audit: 'yes' }, expiresAt: iso(START + 1) }))
        await define(definition('f', { botId: OTHER_BOT, tags: { secret: 'x', lang: 'pt' } }))
        advance(1)
      })

      it('lists distinct tag keys sorted, in pages', async () => {
        const first = await files.listTagKeys({ botId: BOT, scope: ALL, pageSize: 2 })
        expect(first).toEqual({ items: ['channel', 'lang'], next: 'lang' })
        const second = await files.listTagKeys({ botId: BOT, scope: ALL, pageSize: 2, after: first.next! })
        expect(second).toEqual({ items: ['team', 'topic'], next: 'topic' })
        const third = await files.listTagKeys({ botId: BOT, scope: ALL, pageSize: 2, after: second.next! })
        expect(third).toEqual({ items: ['zone'] })
        expect(await files.listTagKeys({ botId: BOT, scope: ALL, pageSize: 5 })).toEqual({ items: ['channel', 'lang', 'team', 'topic', 'zone'] })
        expect(await files.listTagKeys({ botId: BOT, scope: ALL, pageSize: 10, after: 'm' })).toEqual({ items: ['team', 'topic', 'zone'] })
      })

      it('lists distinct values of one tag sorted, in pages', async () => {
        expect(await files.listTagValues({ botId: BOT, tag: 'lang', scope: ALL, pageSize: 2 })).toEqual({ items: ['de', 'en'], next: 'en' })
        expect(await files.listTagValues({ botId: BOT, tag: 'lang', scope: ALL, pageSize: 2, after: 'en' })).toEqual({ items: ['fr'] })
        expect(await files.listTagValues({ botId: BOT, tag: 'lang', scope: ALL, pageSize: 3 })).toEqual({ items: ['de', 'en', 'fr'] })
        expect(await files.listTagValues({ botId: BOT, tag: 'missing', scope: ALL, pageSize: 3 })).toEqual({ items: [] })
      })

      it('counts only the files in scope', async () => {
        const slack: FilesAccessScope = { kind: 'integration', integrationName: 'slack' }
        const teams: FilesAccessScope = { kind: 'integration', integrationName: 'teams' }
        expect(await files.listTagKeys({ botId: BOT, scope: slack, pageSize: 10 })).toEqual({ items: ['channel', 'lang'] })
        expect(await files.listTagKeys({ botId: BOT, scope: teams, pageSize: 10 })).toEqual({ items: [] })
        expect(await files.listTagValues({ botId: BOT, tag: 'lang', scope: slack, pageSize: 10 })).toEqual({ items: ['de'] })
        expect(await files.listTagKeys({ botId: OTHER_BOT, scope: ALL, pageSize: 10 })).toEqual({ items: ['lang', 'secret'] })
      })
    })

    describe('knowledge bases', () => {
      it('creates, reads, renames with a tag merge, and deletes', async () => {
        const kb = await knowledgeBases.create({ botId: BOT, name: 'Docs', tags: { team: 'support', lang: 'en' } })
        expect(kb).toMatchObject({ botId: BOT, name: 'Docs', tags: { team: 'support', lang: 'en' } })
        expect(kb.id).toEqual(expect.any(String))
        expect(ms(kb.createdAt)).toBe(START)
        expect(ms(kb.updatedAt)).toBe(START)
        expect(await knowledgeBases.get(BOT, kb.id)).toEqual(kb)
        expect(await knowledgeBases.get(OTHER_BOT, kb.id)).toBeUndefined()

        advance(5_000)
        const renamed = await knowledgeBases.update(BOT, kb.id, { name: 'Docs v2', tags: { lang: null, region: 'eu' } })
        expect(renamed).toEqual({ ...kb, name: 'Docs v2', tags: { team: 'support', region: 'eu' }, updatedAt: renamed!.updatedAt })
        expect(ms(renamed!.updatedAt)).toBe(START + 5_000)
        expect(await knowledgeBases.get(BOT, kb.id)).toEqual(renamed)

        const untagged = await knowledgeBases.update(BOT, kb.id, { name: 'Docs v3' })
        expect(untagged).toMatchObject({ name: 'Docs v3', tags: { team: 'support', region: 'eu' } })

        expect(await knowledgeBases.update(OTHER_BOT, kb.id, { name: 'stolen' })).toBeUndefined()
        expect(await knowledgeBases.update(BOT, 'kb_missing', { name: 'x' })).toBeUndefined()
        expect(await knowledgeBases.delete(OTHER_BOT, kb.id)).toBe(false)
        expect(await knowledgeBases.delete(BOT, kb.id)).toBe(true)
        expect(await knowledgeBases.get(BOT, kb.id)).toBeUndefined()
        expect(await knowledgeBases.delete(BOT, kb.id)).toBe(false)
      })

      it('lists newest first, filtered by tags, in keyset pages', async () => {
        const made: KnowledgeBaseRecord[] = []
        for (let i = 0; i < 5; i++) {
          made.push(await knowledgeBases.create({ botId: BOT, name: `kb${i}`, tags: i % 2 === 0 ? { kind: 'even' } : { kind: 'odd', extra: 'y' } }))
          advance(1_000)
        }
        await knowledgeBases.create({ botId: OTHER_BOT, name: 'theirs', tags: { kind: 'even' } })
        const names = (items: KnowledgeBaseRecord[]) => items.map((k) => k.name)
        const all = await knowledgeBases.list({ botId: BOT, pageSize: 10 })
        expect(all).toEqual({ items: [...made].reverse() })

        const first = await knowledgeBases.list({ botId: BOT, pageSize: 2 })
        expect(names(first.items)).toEqual(['kb4', 'kb3'])
        expect(first.next).toBeDefined()
        const second = await knowledgeBases.list({ botId: BOT, pageSize: 2, after: first.next! })
        expect(names(second.items)).toEqual(['kb2', 'kb1'])
        const third = await knowledgeBases.list({ botId: BOT, pageSize: 2, after: second.next! })
        expect(third).toEqual({ items: [made[0]] })

        expect(names((await knowledgeBases.list({ botId: BOT, pageSize: 10, tags: normalizeTagFilter({ kind: 'even' }) })).items)).toEqual(['kb4', 'kb2', 'kb0'])
        expect(names((await knowledgeBases.list({ botId: BOT, pageSize: 10, tags: normalizeTagFilter({ kind: { not: 'even' } }) })).items)).toEqual(['kb3', 'kb1'])
        expect(names((await knowledgeBases.list({ botId: BOT, pageSize: 10, tags: normalizeTagFilter({ extra: { exists: false } }) })).items)).toEqual(['kb4', 'kb2', 'kb0'])
        const evenPage = await knowledgeBases.list({ botId: BOT, pageSize: 1, tags: normalizeTagFilter({ kind: ['even'] }) })
        expect(names(evenPage.items)).toEqual(['kb4'])
        expect(names((await knowledgeBases.list({ botId: BOT, pageSize: 5, tags: normalizeTagFilter({ kind: ['even'] }), after: evenPage.next! })).items)).toEqual(['kb2', 'kb0'])
      })

      it('keeps the tag filter in step with updates and deletes', async () => {
        const kb = await knowledgeBases.create({ botId: BOT, name: 'a', tags: { stage: 'draft' } })
        const filtered = async (filter: TagFilter) => (await knowledgeBases.list({ botId: BOT, pageSize: 10, tags: normalizeTagFilter(filter) })).items.map((k) => k.id)
        expect(await filtered({ stage: 'draft' })).toEqual([kb.id])
        await knowledgeBases.update(BOT, kb.id, { name: 'a', tags: { stage: 'live' } })
        expect(await filtered({ stage: 'draft' })).toEqual([])
        expect(await filtered({ stage: 'live' })).toEqual([kb.id])
        await knowledgeBases.update(BOT, kb.id, { name: 'a', tags: { stage: null } })
        expect(await filtered({ stage: { exists: true } })).toEqual([])
        await knowledgeBases.delete(BOT, kb.id)
        expect(await filtered({ stage: { exists: false } })).toEqual([])
      })

      it('never skips or repeats a knowledge base created at the same instant, across pages', async () => {
        const made: string[] = []
        for (let i = 0; i < 7; i++) made.push((await knowledgeBases.create({ botId: BOT, name: `same${i}`, tags: {} })).id)
        const seen: string[] = []
        let after: FilePosition | undefined
        for (let guard = 0; guard < 20; guard++) {
          const page = await knowledgeBases.list({ botId: BOT, pageSize: 3, ...(after ? { after } : {}) })
          seen.push(...page.items.map((k) => k.id))
          if (!page.next) break
          after = page.next
          // Newer ones created meanwhile sort before the cursor: they do not show up in this walk.
          advance(10)
          await knowledgeBases.create({ botId: BOT, name: `newer${guard}`, tags: {} })
        }
        expect([...seen].sort()).toEqual([...made].sort())
      })
    })
  })
}
