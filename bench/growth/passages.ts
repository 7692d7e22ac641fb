/**
 * The passages of the search growth bench: real prose at any size without embedding a million texts. A pool of
 * sentence windows of the retrieval-quality set's frozen corpus (one to three consecutive sentences of a document)
 * is embedded once by the offline default; passage `n` joins two windows of the pool drawn from a seeded generator,
 * and its vector is the word-count-weighted sum of the two windows' vectors, normalised. The offline embedder
 * averages weighted word vectors, so that sum is close to embedding the joined text, and the pairs make the passages
 * distinct up to millions (the pool alone repeats after a few thousand). Queries are four to eight words of a
 * sentence, embedded as queries, as users send them.
 */
import { createOfflineEmbedder, type Embedder } from '../../server/src/search/embedding/index.js'
import { realisticTexts } from '../../server/src/store/sqlite/search/vector-lists.test-support.js'

/** Passages per file in the bench (files are the unit of the tag filter). */
export const PASSAGES_PER_FILE = 50

/** The tag filter keeping one file in seven: `shard = 3` of files tagged `shard = (file number) % 7`. */
export const SHARD_KEPT = '3'

/** A generator of passages: text and unit vector of passage `n`, the same on every call. */
export interface PassageSet {
  embedder: Embedder
  dimensions: number
  text(n: number): string
  /** Writes passage `n`'s unit vector into `out` (length `dimensions`). */
  vector(n: number, out: Float32Array): Float32Array
  queries: Array<{ text: string; vector: Float32Array }>
}

/** A small deterministic hash of `n` and a salt, in [0, 1): the pair of windows of passage `n`. */
function mix(n: number, salt: number): number {
  let x = (Math.imul(n ^ 0x9e3779b9, 0x85ebca6b) ^ salt) >>> 0
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0
  x = (x ^ (x >>> 16)) >>> 0
  return x / 2 ** 32
}

/**
 * Builds the pool (embedding a few thousand distinct windows: a few seconds) and the queries.
 *
 * @example
 * ```ts
 * const set = await passageSet(200)
 * set.text(12) // 'Two sentences of a doc. And two of another.'
 * ```
 */
export async function passageSet(queryCount: number): Promise<PassageSet> {
  const embedder = await createOfflineEmbedder()
  const { passages, queries } = realisticTexts(30_000, queryCount, 3)
  const pool = [...new Set(passages)]
  const pooled = await embedder.embed(pool)
  const dimensions = pooled[0]!.length
  const weights = pool.map((text) => text.split(' ').length)
  const queryVectors = await embedder.embed(queries, { purpose: 'query' })
  const pair = (n: number): [number, number] => [Math.floor(mix(n, 1) * pool.length), Math.floor(mix(n, 2) * pool.length)]
  return {
    embedder,
    dimensions,
    text(n) {
      const [a, b] = pair(n)
      return `${pool[a]} ${pool[b]}`
    },
    vector(n, out) {
      const [a, b] = pair(n)
      const va = pooled[a]!
      const vb = pooled[b]!
      const wa = weights[a]!
      const wb = weights[b]!
      let sum = 0
      for (let j = 0; j < dimensions; j++) {
        const value = wa * va[j]! + wb * vb[j]!
        out[j] = value
        sum += value * value
      }
      const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0
      for (let j = 0; j < dimensions; j++) out[j]! *= scale
      return out
    },
    queries: queries.map((text, i) => ({ text, vector: queryVectors[i]! })),
  }
}
