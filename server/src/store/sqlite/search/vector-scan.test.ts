import { afterEach, describe, expect, it } from 'vitest'
import { botFileInput } from '../../files/bot-file-input.test-support.js'
import type { PassageInput } from '../../search/types.js'
import { openSqliteBackend, type SqliteBackend } from '../backend.js'
import { randomVectors } from './vector-lists.test-support.js'

// The vector scan of decision 1457: int8 copies kept in step by triggers, read from one covering index, and a
// shortlist ranked again on the float32 vectors.

const BOT = 'bot_scan'
const EMBEDDER = 'test-embedder'
const opened: SqliteBackend[] = []
afterEach(async () => {
  for (const backend of opened.splice(0)) await backend.close()
})

async function backendWith(vectors: ReadonlyArray<Float32Array | null>, options: { minVectors?: number } = {}): Promise<{ backend: SqliteBackend; fileId: string }> {
  const backend = await openSqliteBackend({ memory: true, vectorLists: { minVectors: options.minVectors ?? 1_000_000 } })
  opened.push(backend)
  const { file } = await backend.files.upsert(botFileInput(BOT, 'scan.md'))
  const passages: PassageInput[] = vectors.map((vector, i) => ({ content: `passage ${i}`, subtype: 'paragraph', breadcrumb: [], vector }))
  await backend.search.replacePassages({ fileId: file.id, botId: BOT, embedderId: EMBEDDER, passages })
  return { backend, fileId: file.id }
}

function copies(backend: SqliteBackend): Array<{ position: number; copy: string | null; expected: string | null }> {
  return backend.db
    .prepare(
      `SELECT position, CASE WHEN embedding_i8 IS NULL THEN NULL ELSE hex(embedding_i8) END AS copy,
         CASE WHEN embedding IS NULL THEN NULL ELSE hex(botshelf_int8(embedding)) END AS expected
       FROM search_passages ORDER BY position`,
    )
    .all() as Array<{ position: number; copy: string | null; expected: string | null }>
}

async function nearest(backend: SqliteBackend, query: Float32Array, limit = 10): Promise<number[]> {
  const hits = await backend.search.search({ botId: BOT, scope: { kind: 'all' }, text: '', vector: { embedderId: EMBEDDER, values: query }, limit })
  return hits.map((hit) => hit.passage.position)
}

describe('the int8 vector scan on SQLite (decision 1457)', () => {
  it('keeps each passage\'s int8 copy in step with its vector: written, replaced, cleared', async () => {
    const { vectors } = randomVectors(3, 0, 16, 3)
    const { backend, fileId } = await backendWith([vectors[0]!, null, vectors[1]!])
    expect(copies(backend).map((row) => row.copy === null)).toEqual([false, true, false])
    for (const row of copies(backend)) expect(row.copy).toBe(row.expected)

    const [first] = backend.db.prepare('SELECT id FROM search_passages WHERE position = 0').pluck().all() as string[]
    await backend.search.setPassageVectors({ fileId, embedderId: EMBEDDER, vectors: [{ passageId: first!, vector: vectors[2]! }] })
    const after = copies(backend)
    expect(after[0]!.copy).toBe(after[0]!.expected)
    expect(after[0]!.copy).not.toBe(copies(backend)[2]!.copy)

    backend.db.prepare('UPDATE search_passages SET embedding = NULL WHERE position = 0').run()
    expect(copies(backend)[0]!.copy).toBeNull()

    // A write that leaves the copy out (a tool, a loader writing rows by SQL) gets it from the trigger.
    backend.db
      .prepare(
        `INSERT INTO search_passages (id, file_id, bot_id, position, content, subtype, breadcrumb_json, embedder_id, embedding)
         VALUES ('passage_raw', ?, ?, 3, 'raw', 'paragraph', '[]', ?, ?)`,
      )
      .run(fileId, BOT, EMBEDDER, Buffer.from(vectors[0]!.buffer))
    const raw = copies(backend)[3]!
    expect(raw.copy).not.toBeNull()
    expect(raw.copy).toBe(raw.expected)
  })

  it('answers in the exact float32 order, even where the int8 copies tie or swap two passages', async () => {
    // Two passages a hair apart in float32 (closer than int8's step of 1/127), the query between them.
    const base = new Float32Array(8).fill(0)
    base[0] = 1
    const near = (delta: number): Float32Array => {
      const v = base.slice()
      v[1] = delta
      const norm = Math.hypot(...v)
      return v.map((x) => x / norm)
    }
    const closer = near(0.001)
    const farther = near(0.003)
    const { backend } = await backendWith([farther, closer])
    // The int8 copies tie: the scan alone would answer by rowid, the farther passage first.
    expect(copies(backend)[0]!.copy).toBe(copies(backend)[1]!.copy)
    expect(await nearest(backend, near(0))).toEqual([1, 0])
    expect(await nearest(backend, near(0.01))).toEqual([0, 1])
  })

  it('finds the same ten as an exact comparison of every vector, with and without lists', async () => {
    const { vectors, queries } = randomVectors(3_000, 20, 64, 9)
    for (const minVectors of [1_000_000, 1_000]) {
      const { backend } = await backendWith(vectors, { minVectors })
      await backend.vectorLists.idle()
      for (const query of queries) {
        const exact = vectors
          .map((vector, position) => ({ position, score: vector.reduce((sum, value, i) => sum + value * query[i]!, 0) }))
          .sort((a, b) => b.score - a.score || a.position - b.position)
          .slice(0, 10)
          .map((entry) => entry.position)
        const found = await nearest(backend, query)
        if (minVectors === 1_000_000) expect(found).toEqual(exact)
        else expect(found.filter((position) => exact.includes(position)).length).toBeGreaterThanOrEqual(8)
      }
    }
  })

  it('reads the vectors of the scan from the covering index, not from the table', async () => {
    const { vectors, queries } = randomVectors(50, 1, 16, 4)
    const { backend } = await backendWith(vectors)
    const statements: string[] = []
    const prepare = backend.db.prepare.bind(backend.db)
    backend.db.prepare = ((source: string) => {
      statements.push(source)
      return prepare(source)
    }) as typeof backend.db.prepare
    await nearest(backend, queries[0]!)
    backend.db.prepare = prepare
    const scan = statements.find((source) => source.includes('embedding_i8'))
    expect(scan).toBeDefined()
    const parameters = Array.from({ length: scan!.split('?').length - 1 }, () => null)
    const plan = (backend.db.prepare(`EXPLAIN QUERY PLAN ${scan}`).all(...parameters) as Array<{ detail: string }>).map((row) => row.detail)
    expect(plan.find((detail) => detail.includes(' p '))).toContain('COVERING INDEX search_passages_vector_scan')
  })
  it('answers a filtered search as exact search does: a tag keeping 1/7, a tag keeping one file, expired files', async () => {
    const { vectors, queries } = randomVectors(7_000, 10, 32, 21)
    const backend = await openSqliteBackend({ memory: true, vectorLists: { minVectors: 1_000_000 } })
    opened.push(backend)
    const PER = 50
    const fileOf: string[] = []
    const shardOf = (f: number) => String(f % 7)
    for (let f = 0; f * PER < vectors.length; f++) {
      // Every fifth file of shard 3 has expired; file 11 alone carries `only`.
      const expired = f % 7 === 3 && f % 5 === 0
      const tags = { shard: shardOf(f), ...(f === 11 ? { only: 'yes' } : {}) }
      const { file } = await backend.files.upsert(botFileInput(BOT, `f${f}.md`, { tags, expiresAt: expired ? '2000-01-01T00:00:00.000Z' : null }))
      const passages: PassageInput[] = vectors.slice(f * PER, (f + 1) * PER).map((vector, i) => ({ content: `passage ${i}`, subtype: 'paragraph', breadcrumb: [], vector }))
      await backend.search.replacePassages({ fileId: file.id, botId: BOT, embedderId: EMBEDDER, passages })
      fileOf.push(file.id)
    }
    const allowedBy = {
      none: (f: number) => !(f % 7 === 3 && f % 5 === 0),
      shard: (f: number) => f % 7 === 3 && f % 5 !== 0,
      only: (f: number) => f === 11,
    }
    const tagsFor = { none: undefined, shard: [{ key: 'shard', anyOf: ['3'] }], only: [{ key: 'only', anyOf: ['yes'] }] }
    for (const query of queries) {
      for (const kind of ['none', 'shard', 'only'] as const) {
        const exact = vectors
          .map((vector, n) => ({ n, score: vector.reduce((sum, value, i) => sum + value * query[i]!, 0) }))
          .filter((entry) => allowedBy[kind](Math.floor(entry.n / PER)) && entry.score > 0)
          .sort((a, b) => b.score - a.score || a.n - b.n)
          .slice(0, 10)
          .map((entry) => `${fileOf[Math.floor(entry.n / PER)]}/${entry.n % PER}`)
        const hits = await backend.search.search({
          botId: BOT,
          scope: { kind: 'all' },
          text: '',
          vector: { embedderId: EMBEDDER, values: query },
          limit: 10,
          ...(tagsFor[kind] ? { tags: tagsFor[kind] } : {}),
        })
        expect(hits.map((hit) => `${hit.passage.fileId}/${hit.passage.position}`)).toEqual(exact)
      }
    }
  })
})
