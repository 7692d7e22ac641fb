import { createHash } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { normalizeTagFilter } from 'botshelf/api'
import type { Backend } from '../backend.js'
import type { Clock } from '../clock.js'
import type { FileRecord, UpsertFileInput } from '../files/types.js'
import { botFileInput } from '../files/bot-file-input.test-support.js'
import type { PassageInput } from './types.js'

const START = Date.parse('2026-05-01T08:00:00.000Z')
const BOT = 'bot_search_a'
const OTHER_BOT = 'bot_search_b'

type Open = (now: Clock) => Promise<{ backend: Backend; close(): Promise<void> }>

function definition(key: string, extra: Partial<UpsertFileInput> = {}): UpsertFileInput {
  return botFileInput(BOT, key, { size: 5, ...extra })
}

function passage(content: string, vector: number[] | null = null, extra: Partial<PassageInput> = {}): PassageInput {
  return { content, subtype: 'paragraph', breadcrumb: [], vector: vector ? unit(vector) : null, ...extra }
}

function unit(values: number[]): Float32Array {
  const norm = Math.hypot(...values)
  return new Float32Array(values.map((value) => value / norm))
}

/**
 * The contract of `SearchIndexPort` (and the indexing bookkeeping of `FilesPort` it works with), run unchanged by
 * every backend: replace/list/delete, lexical and hybrid ranking, the scope, tag and expiry filters applied inside
 * the query, the rare-term rule, accounting, and the generation guard of indexing outcomes.
 *
 * @example
 * ```ts
 * describeSearchPortContract('sqlite', async (now) => { const backend = await openSqliteBackend({ memory: true, now }); return { backend, close: () => backend.close() } })
 * ```
 */
export function describeSearchPortContract(name: string, open: Open): void {
  describe(`SearchIndexPort contract (${name})`, () => {
    let backend: Backend
    let close: () => Promise<void>
    let clock = START
    const now: Clock = () => new Date(clock)

    beforeEach(async () => {
      clock = START
      ;({ backend, close } = await open(now))
    })
    afterEach(async () => {
      await close()
    })

    async function indexedFile(key: string, passages: PassageInput[], extra: Partial<UpsertFileInput> = {}, embedderId: string | null = null): Promise<FileRecord> {
      const { file } = await backend.files.upsert(definition(key, extra))
      const sha256 = createHash('sha256').update(key).digest('hex')
      const { file: committed } = await backend.files.completeUpload(file.id, file.version, { blobId: `blob_${key}`, size: 5, sha256 })
      await backend.search.replacePassages({ fileId: file.id, botId: committed.botId, embedderId, passages })
      return committed
    }

    it('a content commit of a file to index goes indexing_pending with a new generation; finishIndexing completes only that generation', async () => {
      const { file } = await backend.files.upsert(definition('guide.md'))
      const { file: committed } = await backend.files.completeUpload(file.id, file.version, { blobId: 'b1', size: 5, sha256: 'x' })
      expect(committed.status).toBe('indexing_pending')
      expect(committed.indexGeneration).toBe(file.indexGeneration + 1)
      expect(await backend.files.finishIndexing(file.id, committed.indexGeneration - 1, { status: 'indexing_completed' })).toBeUndefined()
      const done = await backend.files.finishIndexing(file.id, committed.indexGeneration, { status: 'indexing_completed' })
      expect(done?.status).toBe('indexing_completed')
      expect(done?.indexingStack).toBe('v1')
      // Already finished: a second outcome for the same generation changes nothing.
      expect(await backend.files.finishIndexing(file.id, committed.indexGeneration, { status: 'indexing_failed', reason: 'late' })).toBeUndefined()
    })

    it('a file not to index goes upload_completed; requestIndexing moves it to indexing_pending and a failure keeps its reason', async () => {
      const { file } = await backend.files.upsert(definition('plain.txt', { index: false }))
      const { file: committed } = await backend.files.completeUpload(file.id, file.version, { blobId: 'b2', size: 5, sha256: 'x' })
      expect(committed.status).toBe('upload_completed')
      const requested = await backend.files.requestIndexing(file.id)
      expect(requested.status).toBe('indexing_pending')
      const failed = await backend.files.finishIndexing(file.id, requested.indexGeneration, { status: 'indexing_failed', reason: 'no text' })
      expect(failed).toMatchObject({ status: 'indexing_failed', failedStatusReason: 'no text' })
    })

    it('a re-upsert while indexing is pending makes the pending outcome stale', async () => {
      const { file } = await backend.files.upsert(definition('re.md'))
      const { file: committed } = await backend.files.completeUpload(file.id, file.version, { blobId: 'b3', size: 5, sha256: 'x' })
      await backend.files.upsert(definition('re.md'))
      expect(await backend.files.finishIndexing(file.id, committed.indexGeneration, { status: 'indexing_completed' })).toBeUndefined()
      expect((await backend.files.getById(BOT, file.id))?.status).toBe('upload_pending')
    })

    it('lists passages in document order with keyset pages, and replacing swaps the whole set', async () => {
      const file = await indexedFile('doc.md', ['one', 'two', 'three', 'four', 'five'].map((word) => passage(`passage ${word}`)))
      const first = await backend.search.listPassages({ fileId: file.id, pageSize: 2 })
      expect(first.items.map((p) => p.content)).toEqual(['passage one', 'passage two'])
      expect(first.items.map((p) => p.position)).toEqual([0, 1])
      const second = await backend.search.listPassages({ fileId: file.id, pageSize: 2, afterPosition: first.nextPosition! })
      const third = await backend.search.listPassages({ fileId: file.id, pageSize: 2, afterPosition: second.nextPosition! })
      expect([...second.items, ...third.items].map((p) => p.content)).toEqual(['passage three', 'passage four', 'passage five'])
      expect(third.nextPosition).toBeUndefined()

      await backend.search.replacePassages({ fileId: file.id, botId: BOT, embedderId: null, passages: [passage('replacement text', null, { subtype: 'title', pageNumber: 2, breadcrumb: ['Guide'] })] })
      const replaced = await backend.search.listPassages({ fileId: file.id, pageSize: 10 })
      expect(replaced.items).toHaveLength(1)
      expect(replaced.items[0]).toMatchObject({ content: 'replacement text', subtype: 'title', pageNumber: 2, breadcrumb: ['Guide'], position: 0 })
      expect(await backend.search.search({ botId: BOT, scope: { kind: 'all' }, text: 'passage', limit: 10 })).toEqual([])
    })

    it('ranks lexically with stemming and folded diacritics, highest score first', async () => {
      await indexedFile('a.md', [passage('The refund policy covers thirty days.'), passage('Shipping takes a week.')])
      await indexedFile('b.md', [passage('Refunds, refunding and refunded orders: the café explains refunds.')])
      const hits = await backend.search.search({ botId: BOT, scope: { kind: 'all' }, text: 'refunding cafe', limit: 10 })
      expect(hits.map((hit) => hit.passage.content)).toEqual(['Refunds, refunding and refunded orders: the café explains refunds.', 'The refund policy covers thirty days.'])
      expect(hits[0]!.score).toBeGreaterThanOrEqual(hits[1]!.score)
      expect(await backend.search.search({ botId: BOT, scope: { kind: 'all' }, text: 'OR NOT NEAR "( *', limit: 10 })).toEqual([])
    })

    it('applies the bot, the integration scope, tags and expiry inside the query, before the limit', async () => {
      // Many better matches outside the filter must not push the one allowed match out of a small limit.
      for (let i = 0; i < 12; i++) await indexedFile(`noise-${i}.md`, [passage('invoice invoice invoice invoice')], { tags: { lang: 'fr' } })
      await indexedFile('en.md', [passage('an invoice, once')], { tags: { lang: 'en' } })
      const tagged = await backend.search.search({ botId: BOT, scope: { kind: 'all' }, tags: normalizeTagFilter({ lang: 'en' }), text: 'invoice', limit: 1 })
      expect(tagged.map((hit) => hit.passage.content)).toEqual(['an invoice, once'])

      await indexedFile('own.md', [passage('integration secret invoice')], { ownerScope: 'slack', owner: { type: 'integration', name: 'slack' } })
      await indexedFile('shared.md', [passage('shared invoice')], { accessPolicies: ['integrations'] })
      const scoped = await backend.search.search({ botId: BOT, scope: { kind: 'integration', integrationName: 'teams' }, text: 'invoice', limit: 50 })
      expect(scoped.map((hit) => hit.passage.content)).toEqual(['shared invoice'])

      await indexedFile('other.md', [passage('invoice of another bot')], { botId: OTHER_BOT })
      const all = await backend.search.search({ botId: BOT, scope: { kind: 'all' }, text: 'invoice', limit: 50 })
      expect(all.map((hit) => hit.passage.botId).every((bot) => bot === BOT)).toBe(true)
      expect(all).toHaveLength(15)

      await indexedFile('soon.md', [passage('expiring invoice')], { expiresAt: new Date(START + 60_000).toISOString() })
      expect((await backend.search.search({ botId: BOT, scope: { kind: 'all' }, text: 'expiring', limit: 5 })).length).toBe(1)
      clock = START + 120_000
      expect(await backend.search.search({ botId: BOT, scope: { kind: 'all' }, text: 'expiring', limit: 5 })).toEqual([])
      // The expiry sweep deletes the file, and its passages with it.
      const before = (await backend.search.usage([BOT])).passages
      expect((await backend.files.deleteExpired()).deleted).toBe(1)
      expect((await backend.search.usage([BOT])).passages).toBe(before - 1)
    })

    // Issue 28: the tag filter dropped from the vector stage was caught only by an end-to-end test.
    it('applies the tag filter inside the vector stage too, before its limit, when no word matches', async () => {
      for (let i = 0; i < 6; i++) await indexedFile(`fr-${i}.md`, [passage(`chat numero ${i}`, [1, 0.01 * i, 0, 0])], { tags: { lang: 'fr' } }, 'test-embedder')
      await indexedFile('en.md', [passage('a cat', [1, 0.5, 0, 0])], { tags: { lang: 'en' } }, 'test-embedder')
      const query = { botId: BOT, scope: { kind: 'all' as const }, text: 'nothing matches this', vector: { embedderId: 'test-embedder', values: unit([1, 0, 0, 0]) } }
      const tagged = await backend.search.search({ ...query, tags: normalizeTagFilter({ lang: 'en' }), limit: 1 })
      expect(tagged.map((hit) => hit.passage.content)).toEqual(['a cat'])
      const untagged = await backend.search.search({ ...query, limit: 1 })
      expect(untagged.map((hit) => hit.passage.content)).toEqual(['chat numero 0'])
    })

    it('fuses vector and lexical rankings, compares only vectors of the same embedder, and keeps the best lexical match near the top', async () => {
      const near = [1, 0, 0, 0]
      const passages = [
        passage('cats purr softly', [1, 0.05, 0, 0]),
        passage('kittens purr when content', [1, 0.1, 0, 0]),
        passage('felines purr at night', [1, 0.15, 0, 0]),
        passage('a purring pet', [1, 0.2, 0, 0]),
        passage('ZX-81 error code table', [0, 0, 0, 1]),
      ]
      await indexedFile('pets.md', passages, {}, 'test-embedder')
      const semantic = await backend.search.search({ botId: BOT, scope: { kind: 'all' }, text: 'feline', limit: 3, vector: { embedderId: 'test-embedder', values: unit(near) } })
      expect(semantic.map((hit) => hit.passage.content)).toContain('cats purr softly')
      // A rare exact term wins a place among the first three even though its vector is far.
      const rare = await backend.search.search({ botId: BOT, scope: { kind: 'all' }, text: 'ZX-81 purr', limit: 5, vector: { embedderId: 'test-embedder', values: unit(near) } })
      expect(rare.slice(0, 3).map((hit) => hit.passage.content)).toContain('ZX-81 error code table')
      for (let i = 1; i < rare.length; i++) expect(rare[i - 1]!.score).toBeGreaterThanOrEqual(rare[i]!.score)
      // A passage with no positive similarity to the query vector is no candidate.
      const orthogonal = await backend.search.search({ botId: BOT, scope: { kind: 'all' }, text: 'nothing matches this', limit: 5, vector: { embedderId: 'test-embedder', values: unit([0, 0, 1, 0]) } })
      expect(orthogonal).toEqual([])
      // Vectors of another embedder are ignored: only the lexical ranking answers.
      const otherModel = await backend.search.search({ botId: BOT, scope: { kind: 'all' }, text: 'nothing matches this', limit: 5, vector: { embedderId: 'other', values: unit(near) } })
      expect(otherModel).toEqual([])
    })

    it('deleting a file or its passages removes them from search and accounting', async () => {
      const file = await indexedFile('gone.md', [passage('ephemeral words', [1, 0]), passage('more ephemeral words', [0, 1])], {}, 'e')
      const usage = await backend.search.usage([BOT])
      expect(usage.passages).toBe(2)
      expect(usage.passageBytes).toBe(Buffer.byteLength('ephemeral words') + Buffer.byteLength('more ephemeral words'))
      expect(usage.vectorBytes).toBe(2 * 2 * 4)
      expect(await backend.search.usage([OTHER_BOT])).toEqual({ passages: 0, passageBytes: 0, vectorBytes: 0 })
      await backend.files.delete(file.id)
      expect(await backend.search.search({ botId: BOT, scope: { kind: 'all' }, text: 'ephemeral', limit: 5 })).toEqual([])
      expect((await backend.search.usage([BOT])).passages).toBe(0)

      const kept = await indexedFile('kept.md', [passage('kept words')])
      expect(await backend.search.deleteFilePassages(kept.id)).toBe(1)
      expect((await backend.search.listPassages({ fileId: kept.id, pageSize: 5 })).items).toEqual([])
    })

    it('finds the files whose passages another embedder (or none) made, and re-embeds them so vector search uses the new vectors', async () => {
      const old = await indexedFile('old.md', [passage('alpha words', [1, 0]), passage('beta words', [0, 1])], {}, 'old-embedder')
      const plain = await indexedFile('plain.md', [passage('gamma words')])
      const current = await indexedFile('current.md', [passage('delta words', [1, 0])], {}, 'new-embedder')
      expect(await backend.search.countStale('new-embedder')).toEqual({ files: 2, passages: 3 })
      const stale = await backend.search.staleFiles({ embedderId: 'new-embedder', limit: 10 })
      expect(stale.map((entry) => entry.fileId).sort()).toEqual([old.id, plain.id].sort())
      expect(stale.find((entry) => entry.fileId === old.id)).toEqual({ fileId: old.id, botId: BOT, passages: 2 })
      expect(stale.map((entry) => entry.fileId)).not.toContain(current.id)
      // Keyset paging by file id.
      const first = await backend.search.staleFiles({ embedderId: 'new-embedder', limit: 1 })
      const second = await backend.search.staleFiles({ embedderId: 'new-embedder', limit: 1, afterFileId: first[0]!.fileId })
      expect([...first, ...second].map((entry) => entry.fileId)).toEqual(stale.map((entry) => entry.fileId))

      const [alpha, beta] = (await backend.search.listPassages({ fileId: old.id, pageSize: 5 })).items
      const updated = await backend.search.setPassageVectors({
        fileId: old.id,
        embedderId: 'new-embedder',
        vectors: [
          { passageId: alpha!.id, vector: unit([0, 1]) },
          { passageId: beta!.id, vector: unit([1, 0]) },
          { passageId: 'gone-meanwhile', vector: unit([1, 1]) },
        ],
      })
      expect(updated).toBe(2)
      expect(await backend.search.countStale('new-embedder')).toEqual({ files: 1, passages: 1 })
      const hits = await backend.search.search({ botId: BOT, scope: { kind: 'all' }, text: 'unrelated query', limit: 5, vector: { embedderId: 'new-embedder', values: unit([0, 1]) } })
      expect(hits[0]?.passage.content).toBe('alpha words')
      // The old embedder's vectors are gone: a query under its id finds nothing by vector.
      expect(await backend.search.search({ botId: BOT, scope: { kind: 'all' }, text: 'unrelated query', limit: 5, vector: { embedderId: 'old-embedder', values: unit([1, 0]) } })).toEqual([])
    })

    it('passagesAround returns the neighbours of a position in order', async () => {
      const file = await indexedFile('ctx.md', ['a', 'b', 'c', 'd', 'e'].map((letter) => passage(`letter ${letter}`)))
      const around = await backend.search.passagesAround(file.id, 1, 3)
      expect(around.map((p) => p.content)).toEqual(['letter b', 'letter c', 'letter d'])
    })

    it('a replacement inside a transaction that rolls back leaves the old passages', async () => {
      const file = await indexedFile('tx.md', [passage('original wording')])
      await expect(
        backend.transaction(async (tx) => {
          await tx.search.replacePassages({ fileId: file.id, botId: BOT, embedderId: null, passages: [passage('new wording')] })
          throw new Error('abort')
        }),
      ).rejects.toThrow('abort')
      expect((await backend.search.listPassages({ fileId: file.id, pageSize: 5 })).items.map((p) => p.content)).toEqual(['original wording'])
    })
  })
}
