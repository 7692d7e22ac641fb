/**
 * Test and bench support of the approximate vector stage: realistic passages (sentence windows of the retrieval-quality
 * set's frozen corpus, real prose taken from the project's docs) and queries (short word windows of those sentences), random unit vectors with queries near the data, and
 * recall@10 of a ranking against exact search, counting ties (a result as close as the tenth exact one is a hit).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { seededRandom } from 'botshelf/testing'

/** Where the frozen corpus of the retrieval-quality set lives (bench/search/corpus.json). */
export const FROZEN_CORPUS = join(import.meta.dirname, '../../../../../bench/search/corpus.json')

/** The sentences of each source document of a corpus file (`{ passages: [{ source, title, text }] }`), in order. */
export function corpusSentences(corpusFile: string): string[][] {
  const { passages } = JSON.parse(readFileSync(corpusFile, 'utf8')) as { passages: Array<{ source: string; title: string; text: string }> }
  const bySource = new Map<string, string[]>()
  for (const passage of passages) {
    const sentences = `${passage.title}. ${passage.text}`
      .split(/(?<=[.!?])\s+|\n+/)
      .map((sentence) => sentence.replace(/[#*`>_|]+/g, ' ').replace(/\s+/g, ' ').trim())
      .filter((sentence) => sentence.split(' ').length >= 6)
    bySource.set(passage.source, [...(bySource.get(passage.source) ?? []), ...sentences])
  }
  return [...bySource.values()].filter((sentences) => sentences.length > 0)
}

/**
 * `count` passages of real prose: one to three consecutive sentences of one document; and `queries` queries of four
 * to eight consecutive words of a sentence (what a user types about a passage, not random noise).
 */
export function realisticTexts(count: number, queries: number, seed = 3, corpusFile = FROZEN_CORPUS): { passages: string[]; queries: string[] } {
  const documents = corpusSentences(corpusFile)
  const random = seededRandom(seed)
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
  const passages = Array.from({ length: count }, () => {
    const sentences = pick(documents)
    const at = Math.floor(random() * sentences.length)
    return sentences.slice(at, at + 1 + Math.floor(random() * 3)).join(' ')
  })
  const questions = Array.from({ length: queries }, () => {
    const words = pick(pick(documents)).split(' ')
    const length = 4 + Math.floor(random() * 5)
    const at = Math.floor(random() * Math.max(1, words.length - length))
    return words.slice(at, at + length).join(' ')
  })
  return { passages, queries: questions }
}

function normalized(vector: Float32Array): Float32Array {
  let sum = 0
  for (const value of vector) sum += value * value
  const scale = 1 / Math.sqrt(sum)
  return vector.map((value) => value * scale)
}

/** Random unit vectors (Gaussian directions) and queries near them: a data vector plus noise of the same norm. */
export function randomVectors(count: number, queries: number, dimensions: number, seed = 5): { vectors: Float32Array[]; queries: Float32Array[] } {
  const random = seededRandom(seed)
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
  const unit = () => normalized(Float32Array.from({ length: dimensions }, gaussian))
  const vectors = Array.from({ length: count }, unit)
  const near = Array.from({ length: queries }, () => {
    const base = vectors[Math.floor(random() * count)]!
    const noise = unit()
    return normalized(base.map((value, i) => value + noise[i]!))
  })
  return { vectors, queries: near }
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!
  return sum
}

/**
 * Recall@k of an approximate top-k against exact search over `vectors`, counting ties: a returned index whose
 * similarity is at least the k-th exact similarity (within float error) counts as found.
 */
export function recallAtK(vectors: readonly Float32Array[], query: Float32Array, approximate: readonly number[], k = 10): number {
  const similarities = vectors.map((vector) => dot(vector, query))
  const sorted = Float64Array.from(similarities).sort()
  const kth = sorted[sorted.length - Math.min(k, sorted.length)]!
  const expected = Math.min(k, vectors.length)
  const found = approximate.slice(0, k).filter((index) => similarities[index]! >= kth - 1e-6).length
  return found / expected
}
