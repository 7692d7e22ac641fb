import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Backend } from '../../backend.js'
import type { PgSql } from '../pg-types.js'
import { hnswIndexName } from './hnsw-index.js'
import { openSearchTestBackend } from './search-test-backend.test-support.js'
import { dot, seededUnitVectors } from './seeded-vectors.test-support.js'
import { watchPgliteQueries } from './pglite-sql.test-support.js'
import { pgliteDatabase } from './test-databases.test-support.js'

const PASSAGES = 5000
const QUERIES = 100
const DIMENSIONS = 64
const BOT = 'bot_recall'
const now = () => new Date('2026-05-01T08:00:00.000Z')

describe('pgvector HNSW recall (PGlite)', () => {
  let lite: Awaited<ReturnType<typeof pgliteDatabase>>
  let sql: PgSql
  let close: () => Promise<void>
  let backend: Backend
  const next = seededUnitVectors(7, DIMENSIONS)
  const vectors = Array.from({ length: PASSAGES }, () => next())

  beforeAll(async () => {
    lite = await pgliteDatabase({ withVector: true })
    ;({ sql, close } = await lite.openSchema())
    backend = await openSearchTestBackend(sql, now, 'pgvector')
    const { file } = await backend.files.upsert({
      botId: BOT, key: 'vectors.md', ownerScope: '', owner: { type: 'bot', id: BOT }, size: 1, contentType: 'text/plain',
      tags: {}, metadata: {}, accessPolicies: [], index: true, expiresAt: null,
    })
    await backend.search.replacePassages({
      fileId: file.id,
      botId: BOT,
      embedderId: 'random-64',
      passages: vectors.map((vector, i) => ({ content: `passage ${i}`, subtype: 'paragraph', breadcrumb: [], vector })),
    })
    // Statistics, as autovacuum would gather them: without them the planner cannot weigh the index.
    await sql`ANALYZE search_passages`
  }, 240_000)
  afterAll(async () => {
    await close?.()
    await lite?.drop()
  })

  it("the port's vector ranking statement reads the HNSW index of its dimension", async () => {
    const statements: Array<{ text: string; params: unknown[] }> = []
    const stop = watchPgliteQueries((text, params) => statements.push({ text, params }))
    try {
      await backend.search.search({ botId: BOT, scope: { kind: 'all' }, tags: [{ key: 'lang', noneOf: ['xx'] }], text: 'qwxz', limit: 10, vector: { embedderId: 'random-64', values: next() } })
    } finally {
      stop()
    }
    const nearest = statements.find((statement) => statement.text.includes('<=>'))
    expect(nearest, 'the port ran a vector ranking statement').toBeDefined()
    const plan = await lite.db.query(`EXPLAIN ${nearest!.text}`, nearest!.params)
    const text = plan.rows.map((row) => Object.values(row as object)[0]).join('\n')
    expect(text, text).toContain(`Index Scan using ${hnswIndexName(DIMENSIONS)}`)
  })

  it(`recall@10 of the port's search against exact cosine is at least 0.95 over ${QUERIES} queries`, async () => {
    let found = 0
    for (let q = 0; q < QUERIES; q++) {
      const query = next()
      const exact = vectors
        .map((vector, i) => ({ i, similarity: dot(vector, query) }))
        .sort((a, b) => b.similarity - a.similarity)
        .slice(0, 10)
        .map((entry) => `passage ${entry.i}`)
      // No word of the text is in any passage: the ranking is the vector one alone.
      const hits = await backend.search.search({ botId: BOT, scope: { kind: 'all' }, text: 'qwxz', limit: 10, vector: { embedderId: 'random-64', values: query } })
      const got = new Set(hits.map((hit) => hit.passage.content))
      found += exact.filter((content) => got.has(content)).length
    }
    expect(found / (QUERIES * 10)).toBeGreaterThanOrEqual(0.95)
  }, 120_000)
})
