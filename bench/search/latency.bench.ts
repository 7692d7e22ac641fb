/**
 * Search latency bench: p50/p95 of one search through the search index port at each size, exact and with the
 * approximate vector stage (decision 0821), with recall@10 of the port's vector ranking against exact search, on two
 * sets of passages:
 *
 * - `prose`: real prose (sentence windows of the project's docs) embedded by the offline default (356 d); queries are
 *   four to eight words of a sentence, embedded as queries: what users send.
 * - `random`: 30 words over a 5 000-word vocabulary (Zipf-like) and random unit vectors (the worst case for any
 *   approximate index: no structure); queries are two words and a data vector plus noise of the same norm.
 *
 * Each size is loaded into a data folder by a backend that never trains lists (the exact rows are measured there),
 * then reopened with the lists' threshold below the size, so the lists train at open as on an upgraded database
 * (the event loop's longest stall during that training is reported), then measured again. Raw-SQL baselines run on
 * the same database in the same run: the bare FTS5 query and the bare `vec_distance_cosine` scan of every vector.
 *
 * Options: --sizes 10000,100000 --queries 40 (timed queries per measurement, after 3 warm-up ones) --sets prose,random
 * --recall-queries 200.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { createOfflineEmbedder, STOP_WORDS } from '../../server/src/search/embedding/index.js'
import { openSqliteBackend, type SqliteBackend } from '../../server/src/store/sqlite/backend.js'
import type { PassageInput } from '../../server/src/store/index.js'
import { seededRandom } from '../../src/testing/seeded-random.js'
import { randomVectors, realisticTexts, recallAtK } from '../../server/src/store/sqlite/search/vector-lists.test-support.js'

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? process.argv[index + 1]! : fallback
}
const sizes = option('sizes', '10000,100000').split(',').map(Number)
const sets = option('sets', 'prose,random').split(',')
const timedQueries = Number(option('queries', '40'))
const recallQueries = Number(option('recall-queries', '200'))
const perFile = 50
const botId = 'bot_bench'

const bytes = (vector: Float32Array) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

async function latency(run: (index: number) => unknown): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 3; i++) await run(i)
  const times: number[] = []
  for (let i = 0; i < timedQueries; i++) {
    const start = performance.now()
    await run(i)
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  return { p50: percentile(times, 50), p95: percentile(times, 95) }
}

interface DataSet {
  texts: string[]
  vectors: Float32Array[]
  queries: Array<{ text: string; vector: Float32Array }>
}

async function proseSet(size: number): Promise<DataSet> {
  const embedder = await createOfflineEmbedder()
  const { passages, queries } = realisticTexts(size, Math.max(recallQueries, 50), 3)
  const vectors = await embedder.embed(passages)
  const queryVectors = await embedder.embed(queries, { purpose: 'query' })
  return { texts: passages, vectors, queries: queries.map((text, i) => ({ text, vector: queryVectors[i]! })) }
}

function randomSet(size: number): DataSet {
  const random = seededRandom(7)
  const vocabulary = Array.from({ length: 5_000 }, (_, i) => `w${i.toString(36)}`)
  const sentence = () => Array.from({ length: 30 }, () => vocabulary[Math.floor(random() ** 2 * vocabulary.length)]).join(' ')
  const { vectors, queries } = randomVectors(size, Math.max(recallQueries, 50), 356, 5)
  return {
    texts: vectors.map(() => sentence()),
    vectors,
    queries: queries.map((vector) => ({ text: `${vocabulary[Math.floor(random() * 300)]} ${vocabulary[Math.floor(random() * 3000)]}`, vector })),
  }
}

async function load(backend: SqliteBackend, data: DataSet): Promise<string[]> {
  const fileIds: string[] = []
  for (let start = 0; start < data.vectors.length; start += perFile) {
    const { file } = await backend.files.upsert({
      botId, key: `f${start}.md`, ownerScope: '', owner: { type: 'bot', id: botId }, size: 1, contentType: 'text/markdown',
      tags: { shard: String((start / perFile) % 7) }, metadata: {}, accessPolicies: [], index: true, expiresAt: null,
    })
    const passages: PassageInput[] = []
    for (let i = start; i < Math.min(data.vectors.length, start + perFile); i++) passages.push({ content: data.texts[i]!, subtype: 'paragraph', breadcrumb: [], vector: data.vectors[i]! })
    await backend.search.replacePassages({ fileId: file.id, botId, embedderId: 'bench', passages })
    fileIds.push(file.id)
  }
  return fileIds
}

async function portMeasurements(backend: SqliteBackend, data: DataSet, label: string): Promise<Record<string, { p50: number; p95: number }>> {
  const query = (i: number) => data.queries[i % data.queries.length]!
  return {
    [`port: vector search alone (no words), ${label}`]: await latency((i) =>
      backend.search.search({ botId, scope: { kind: 'all' }, text: '', vector: { embedderId: 'bench', values: query(i).vector }, limit: 20 }),
    ),
    [`port: hybrid search, ${label}`]: await latency((i) =>
      backend.search.search({ botId, scope: { kind: 'all' }, text: query(i).text, vector: { embedderId: 'bench', values: query(i).vector }, limit: 20 }),
    ),
    [`port: hybrid search, tag filter keeping 1/7, ${label}`]: await latency((i) =>
      backend.search.search({ botId, scope: { kind: 'all' }, tags: [{ key: 'shard', anyOf: ['3'] }], text: query(i).text, vector: { embedderId: 'bench', values: query(i).vector }, limit: 20 }),
    ),
  }
}

/** Mean recall@10 of the port's vector ranking (a query with no words) against exact search, unfiltered and with the tag filter. */
async function recall(backend: SqliteBackend, data: DataSet, fileIds: string[]): Promise<{ all: number; filtered: number }> {
  const fileIndex = new Map(fileIds.map((id, i) => [id, i]))
  const kept = data.vectors.map((_, i) => Math.floor(i / perFile) % 7 === 3)
  const filteredVectors = data.vectors.filter((_, i) => kept[i])
  const filteredIndex = new Map<number, number>()
  data.vectors.forEach((_, i) => kept[i] && filteredIndex.set(i, filteredIndex.size))
  let all = 0
  let filtered = 0
  const count = Math.min(recallQueries, data.queries.length)
  for (const { vector } of data.queries.slice(0, count)) {
    const top = async (tags?: Array<{ key: string; anyOf: string[] }>) =>
      (await backend.search.search({ botId, scope: { kind: 'all' }, text: '', vector: { embedderId: 'bench', values: vector }, limit: 10, ...(tags ? { tags } : {}) })).map(
        (hit) => fileIndex.get(hit.passage.fileId)! * perFile + hit.passage.position,
      )
    all += recallAtK(data.vectors, vector, await top())
    filtered += recallAtK(filteredVectors, vector, (await top([{ key: 'shard', anyOf: ['3'] }])).map((i) => filteredIndex.get(i)!))
  }
  return { all: all / count, filtered: filtered / count }
}

const rows: string[] = []
const notes: string[] = []
for (const set of sets) {
  for (const size of sizes) {
    const data = set === 'prose' ? await proseSet(size) : randomSet(size)
    const dataDir = mkdtempSync(join(tmpdir(), 'botshelf-latency-'))
    const exactBackend = await openSqliteBackend({ dataDir, vectorLists: { minVectors: Number.MAX_SAFE_INTEGER } })
    const loadStart = performance.now()
    const fileIds = await load(exactBackend, data)
    const loadSeconds = (performance.now() - loadStart) / 1000
    const query = (i: number) => data.queries[i % data.queries.length]!
    const bareFts = exactBackend.db.prepare(`SELECT rowid FROM search_passages_fts WHERE search_passages_fts MATCH ? ORDER BY bm25(search_passages_fts) LIMIT 100`)
    const bareScan = exactBackend.db.prepare(`SELECT rowid, vec_distance_cosine(embedding, ?) AS d FROM search_passages ORDER BY d LIMIT 100`)
    // The words the port sends: stop words dropped unless nothing else is left.
    const ftsMatch = (text: string) => {
      const words = text.match(/[\p{L}\p{N}_]+/gu) ?? ['none']
      const content = words.filter((word) => !STOP_WORDS.has(word.toLowerCase()))
      return (content.length > 0 ? content : words).map((word) => `"${word}"`).join(' OR ')
    }
    const measured: Record<string, { p50: number; p95: number }> = {
      'bare FTS5 BM25 query (raw SQL)': await latency((i) => bareFts.all(ftsMatch(query(i).text))),
      'bare vec_distance_cosine scan of every vector (raw SQL)': await latency((i) => bareScan.all(bytes(query(i).vector))),
      'port: lexical search (words only)': await latency((i) => exactBackend.search.search({ botId, scope: { kind: 'all' }, text: query(i).text, limit: 20 })),
      ...(await portMeasurements(exactBackend, data, 'exact')),
    }
    await exactBackend.close()

    const delay = monitorEventLoopDelay({ resolution: 10 })
    delay.enable()
    const trainStart = performance.now()
    const backend = await openSqliteBackend({ dataDir, vectorLists: { minVectors: Math.min(size, 20_000) / 2 } })
    await backend.vectorLists.idle()
    const trainSeconds = (performance.now() - trainStart) / 1000
    delay.disable()
    const state = backend.db.prepare('SELECT lists, measured_recall AS estimate FROM search_vector_lists').get() as { lists: number; estimate: number }
    const kept = state.lists > 0
    Object.assign(measured, await portMeasurements(backend, data, kept ? `approximate (${state.lists} lists, 28 probed)` : 'lists not kept: exact'))
    const measuredRecall = await recall(backend, data, fileIds)
    await backend.close()
    rmSync(dataDir, { recursive: true, force: true })

    const scan = measured['bare vec_distance_cosine scan of every vector (raw SQL)']!
    for (const [name, { p50, p95 }] of Object.entries(measured)) {
      rows.push(`| ${set} | ${size.toLocaleString('en')} | ${name} | ${p50.toFixed(1)} | ${p95.toFixed(1)} | ${(p95 / scan.p95).toFixed(2)} |`)
    }
    notes.push(
      `| ${set} | ${size.toLocaleString('en')} | ${loadSeconds.toFixed(1)} | ${trainSeconds.toFixed(1)} | ${(delay.max / 1e6).toFixed(0)} | ${state.lists} | ${state.estimate.toFixed(3)} | ${kept ? 'yes' : 'no'} | ${measuredRecall.all.toFixed(3)} | ${measuredRecall.filtered.toFixed(3)} |`,
    )
    console.error(`${set} ${size}: done`)
  }
}
console.log('| set | passages | measurement | p50 ms | p95 ms | p95 / bare vector scan p95 |')
console.log('|---|---:|---|---:|---:|---:|')
for (const row of rows) console.log(row)
console.log('')
console.log('| set | passages | load s | lists training s (at open) | longest event-loop stall ms | lists | recall estimated at training | kept | recall@10 vs exact | recall@10 vs exact, tag filter 1/7 |')
console.log('|---|---:|---:|---:|---:|---:|---:|---|---:|---:|')
for (const note of notes) console.log(note)
