/**
 * Search index bench: queries per second of the SQLite search index (lexical BM25 alone, and hybrid BM25 + exact
 * cosine KNN fused by reciprocal rank) over N passages of one bot, against a baseline measured in the same run: a
 * brute-force dot product over the same vectors held in one Float32Array in memory (the least work an exact KNN can
 * do). Options: --passages 20000 --dimensions 128 --seconds 2.
 */
import { openSqliteBackend } from '../server/src/store/sqlite/backend.js'
import type { PassageInput } from '../server/src/store/index.js'

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? Number(process.argv[index + 1]) : fallback
}
const passagesCount = option('passages', 20_000)
const dimensions = option('dimensions', 128)
const seconds = option('seconds', 2)
const perFile = 50

let seed = 42
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31)
const vocabulary = Array.from({ length: 5_000 }, (_, i) => `w${i.toString(36)}`)
const sentence = () => Array.from({ length: 30 }, () => vocabulary[Math.floor(random() ** 2 * vocabulary.length)]).join(' ')
function unitVector(): Float32Array {
  const vector = Float32Array.from({ length: dimensions }, () => random() - 0.5)
  const norm = Math.hypot(...vector)
  return vector.map((value) => value / norm)
}

async function rate(run: () => Promise<unknown> | unknown): Promise<number> {
  const end = Date.now() + seconds * 1000
  let count = 0
  while (Date.now() < end) {
    await run()
    count++
  }
  return count / seconds
}

const backend = await openSqliteBackend({ memory: true })
const botId = 'bot_bench'
const all = new Float32Array(passagesCount * dimensions)
const loadStart = Date.now()
for (let start = 0; start < passagesCount; start += perFile) {
  const { file } = await backend.files.upsert({
    botId, key: `f${start}.md`, ownerScope: '', owner: { type: 'bot', id: botId }, size: 1, contentType: 'text/markdown',
    tags: { shard: String(start % 7) }, metadata: {}, accessPolicies: [], index: true, expiresAt: null,
  })
  const passages: PassageInput[] = []
  for (let i = start; i < Math.min(passagesCount, start + perFile); i++) {
    const vector = unitVector()
    all.set(vector, i * dimensions)
    passages.push({ content: sentence(), subtype: 'paragraph', breadcrumb: [], vector })
  }
  await backend.search.replacePassages({ fileId: file.id, botId, embedderId: 'bench', passages })
}
const loadSeconds = (Date.now() - loadStart) / 1000

const queries = Array.from({ length: 50 }, () => ({ text: `${vocabulary[Math.floor(random() * 300)]} ${vocabulary[Math.floor(random() * 3000)]}`, vector: unitVector() }))
let q = 0
const next = () => queries[q++ % queries.length]!
const lexical = await rate(() => backend.search.search({ botId, scope: { kind: 'all' }, text: next().text, limit: 20 }))
const hybrid = await rate(() => {
  const query = next()
  return backend.search.search({ botId, scope: { kind: 'all' }, text: query.text, vector: { embedderId: 'bench', values: query.vector }, limit: 20 })
})
const filtered = await rate(() => {
  const query = next()
  return backend.search.search({ botId, scope: { kind: 'all' }, tags: [{ key: 'shard', anyOf: ['3'] }], text: query.text, vector: { embedderId: 'bench', values: query.vector }, limit: 20 })
})
const bruteForce = await rate(() => {
  const { vector } = next()
  const scores = new Float32Array(passagesCount)
  for (let p = 0; p < passagesCount; p++) {
    let dot = 0
    for (let d = 0; d < dimensions; d++) dot += all[p * dimensions + d]! * vector[d]!
    scores[p] = dot
  }
  return scores.slice().sort().at(-20)
})
await backend.close()

const usage = (n: number) => n.toFixed(1)
console.log(`passages ${passagesCount}, dimensions ${dimensions}, indexed in ${loadSeconds.toFixed(1)} s (${Math.round(passagesCount / loadSeconds)} passages/s)`)
console.log('| measurement | queries/s | ratio to the in-memory brute-force KNN |')
console.log('|---|---:|---:|')
console.log(`| in-memory brute-force KNN (baseline) | ${usage(bruteForce)} | 1 |`)
console.log(`| lexical search (BM25) | ${usage(lexical)} | ${(lexical / bruteForce).toFixed(2)} |`)
console.log(`| hybrid search (BM25 + exact cosine in SQLite, RRF) | ${usage(hybrid)} | ${(hybrid / bruteForce).toFixed(2)} |`)
console.log(`| hybrid search, tag filter keeping 1/7 of the files | ${usage(filtered)} | ${(filtered / bruteForce).toFixed(2)} |`)
