/**
 * Search latency bench: p50/p95 of one search through the search index port (hybrid: BM25 + exact cosine KNN over
 * the caller's allowed rows, fused by RRF, rows read back) at each size, with the offline embedder's dimension (356),
 * against raw-SQL baselines measured in the same run on the same database: the bare FTS5 BM25 query (no join, no
 * filter) and the bare `vec_distance_cosine` scan of every vector (no join, no filter). Lexical-only search through
 * the port is measured too (what a search costs while the embedder is down), and sqlite-vec's `vec0` KNN table over the
 * same vectors (no filter), the candidate for an index past the exact scan's reach.
 *
 * Options: --sizes 10000,100000 --queries 40 (timed queries per measurement, after 3 warm-up ones).
 * Passages: 30 words over a 5 000-word vocabulary (Zipf-like), random unit vectors, files of 50 passages, one bot.
 */
import { performance } from 'node:perf_hooks'
import { openSqliteBackend } from '../../src/store/sqlite/sqlite-backend.js'
import type { PassageInput } from '../../src/store/index.js'

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? process.argv[index + 1]! : fallback
}
const sizes = option('sizes', '10000,100000').split(',').map(Number)
const timedQueries = Number(option('queries', '40'))
const dimensions = 356
const perFile = 50

let seed = 7
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31)
const vocabulary = Array.from({ length: 5_000 }, (_, i) => `w${i.toString(36)}`)
const sentence = () => Array.from({ length: 30 }, () => vocabulary[Math.floor(random() ** 2 * vocabulary.length)]).join(' ')
function unitVector(): Float32Array {
  const vector = Float32Array.from({ length: dimensions }, () => random() - 0.5)
  let norm = 0
  for (const value of vector) norm += value * value
  norm = Math.sqrt(norm)
  return vector.map((value) => value / norm)
}
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

const rows: string[] = []
for (const size of sizes) {
  const backend = await openSqliteBackend({ memory: true })
  const botId = 'bot_bench'
  const loadStart = performance.now()
  for (let start = 0; start < size; start += perFile) {
    const { file } = await backend.files.upsert({
      botId, key: `f${start}.md`, ownerScope: '', owner: { type: 'bot', id: botId }, size: 1, contentType: 'text/markdown',
      tags: { shard: String(start % 7) }, metadata: {}, accessPolicies: [], index: true, expiresAt: null,
    })
    const passages: PassageInput[] = []
    for (let i = start; i < Math.min(size, start + perFile); i++) passages.push({ content: sentence(), subtype: 'paragraph', breadcrumb: [], vector: unitVector() })
    await backend.search.replacePassages({ fileId: file.id, botId, embedderId: 'bench', passages })
  }
  const loadSeconds = (performance.now() - loadStart) / 1000
  const queries = Array.from({ length: 50 }, () => ({ text: `${vocabulary[Math.floor(random() * 300)]} ${vocabulary[Math.floor(random() * 3000)]}`, vector: unitVector() }))
  const query = (i: number) => queries[i % queries.length]!

  const bareFts = backend.db.prepare(
    `SELECT rowid FROM search_passages_fts WHERE search_passages_fts MATCH ? ORDER BY bm25(search_passages_fts) LIMIT 100`,
  )
  const bareScan = backend.db.prepare(`SELECT rowid, vec_distance_cosine(embedding, ?) AS d FROM search_passages ORDER BY d LIMIT 100`)
  // sqlite-vec's own KNN virtual table, for comparison (no scope or tag filter: a candidate for the next step).
  backend.db.exec(`CREATE VIRTUAL TABLE bench_vec USING vec0(embedding float[${dimensions}] distance_metric=cosine)`)
  backend.db.exec('INSERT INTO bench_vec (rowid, embedding) SELECT rowid, embedding FROM search_passages')
  const vec0Knn = backend.db.prepare('SELECT rowid, distance FROM bench_vec WHERE embedding MATCH ? AND k = 100')
  const ftsMatch = (text: string) => text.split(' ').map((word) => `"${word}"`).join(' OR ')

  const measured = {
    'bare FTS5 BM25 query (raw SQL)': await latency((i) => bareFts.all(ftsMatch(query(i).text))),
    'bare vec_distance_cosine scan of every vector (raw SQL)': await latency((i) => bareScan.all(bytes(query(i).vector))),
    'sqlite-vec vec0 KNN, k = 100, no filter (raw SQL)': await latency((i) => vec0Knn.all(bytes(query(i).vector))),
    'port: lexical search (words only)': await latency((i) => backend.search.search({ botId, scope: { kind: 'all' }, text: query(i).text, limit: 20 })),
    'port: hybrid search': await latency((i) =>
      backend.search.search({ botId, scope: { kind: 'all' }, text: query(i).text, vector: { embedderId: 'bench', values: query(i).vector }, limit: 20 }),
    ),
    'port: hybrid search, tag filter keeping 1/7': await latency((i) =>
      backend.search.search({ botId, scope: { kind: 'all' }, tags: [{ key: 'shard', anyOf: ['3'] }], text: query(i).text, vector: { embedderId: 'bench', values: query(i).vector }, limit: 20 }),
    ),
  }
  await backend.close()
  const scan = measured['bare vec_distance_cosine scan of every vector (raw SQL)']
  console.error(`${size} passages × ${dimensions} d indexed in ${loadSeconds.toFixed(1)} s`)
  for (const [name, { p50, p95 }] of Object.entries(measured)) {
    rows.push(`| ${size.toLocaleString('en')} | ${name} | ${p50.toFixed(1)} | ${p95.toFixed(1)} | ${(p95 / scan.p95).toFixed(2)} |`)
  }
}
console.log('| passages | measurement | p50 ms | p95 ms | p95 / bare vector scan p95 |')
console.log('|---:|---|---:|---:|---:|')
for (const row of rows) console.log(row)
