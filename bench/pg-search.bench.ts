/**
 * PostgreSQL search index bench: search latency p50/p95 of the PostgreSQL search port at N passages of one bot,
 * lexical (ts_rank_cd over the GIN index) and hybrid (lexical + vector, fused), in both vector modes: `exact`
 * (real[] and a cosine computed in SQL) on the PostgreSQL server, and `pgvector` (HNSW) on PGlite. Each engine has a
 * raw SQL baseline measured in the same run: one tsquery match over the GIN index, and the nearest vectors by HNSW
 * (pgvector) or the read of every vector's bytes (exact), without the port's join, filters and second statement. Options: --passages 10000 --dimensions 128 --queries 60.
 * Compare ratios against the baseline of the same engine, not absolute numbers across machines.
 */
import type { Backend } from '../server/src/store/backend.js'
import type { PgSql } from '../server/src/store/postgres/pg-types.js'
import { openSearchTestBackend } from '../server/src/store/postgres/search/search-test-backend.test-support.js'
import { seededUnitVectors } from '../server/src/store/postgres/search/seeded-vectors.test-support.js'
import { pgliteDatabase, realPostgresDatabase, type SchemaSource } from '../server/src/store/postgres/search/test-databases.test-support.js'
import { pgvectorLiteral } from '../server/src/store/postgres/search/vector-literals.js'
import type { VectorMode } from '../server/src/store/postgres/search/vector-mode.js'

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? Number(process.argv[index + 1]) : fallback
}
const passagesCount = option('passages', 10_000)
const dimensions = option('dimensions', 128)
const queries = option('queries', 60)
const perFile = 50
const botId = 'bot_bench'
const now = () => new Date('2026-05-01T08:00:00.000Z')

let seed = 42
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31)
const vocabulary = Array.from({ length: 5_000 }, (_, i) => `w${i.toString(36)}`)
const word = () => vocabulary[Math.floor(random() ** 2 * vocabulary.length)]!
const sentence = () => Array.from({ length: 30 }, word).join(' ')

async function latencies(run: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 3; i++) await run()
  const times: number[] = []
  for (let i = 0; i < queries; i++) {
    const start = performance.now()
    await run()
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  return { p50: times[Math.floor(times.length * 0.5)]!, p95: times[Math.min(times.length - 1, Math.floor(times.length * 0.95))]! }
}

async function fill(backend: Backend): Promise<void> {
  const next = seededUnitVectors(3, dimensions)
  for (let f = 0; f < passagesCount / perFile; f++) {
    const { file } = await backend.files.upsert({
      botId, key: `doc-${f}.md`, ownerScope: '', owner: { type: 'bot', id: botId }, size: 1, contentType: 'text/plain',
      tags: { lang: f % 2 === 0 ? 'en' : 'fr' }, metadata: {}, accessPolicies: [], index: true, expiresAt: null,
    })
    const passages = Array.from({ length: perFile }, () => ({ content: sentence(), subtype: 'paragraph' as const, breadcrumb: [], vector: next() }))
    await backend.search.replacePassages({ fileId: file.id, botId, embedderId: 'bench', passages })
  }
}

async function measure(label: string, source: SchemaSource, mode: VectorMode): Promise<void> {
  const { sql, close } = await source.openSchema()
  try {
    const backend = await openSearchTestBackend(sql, now, mode)
    const started = performance.now()
    await fill(backend)
    await sql`ANALYZE`
    console.log(`${label}: ${passagesCount} passages x ${dimensions} dims indexed in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    const next = seededUnitVectors(11, dimensions)
    const text = () => `${word()} ${word()} ${word()}`
    const rows: Array<[string, { p50: number; p95: number }]> = []
    rows.push(['raw SQL: GIN tsquery match, 100 rows', await latencies(() => sql`SELECT seq FROM search_passages WHERE content_tsv @@ to_tsquery('simple', ${word()}) LIMIT 100`)])
    rows.push(['port: lexical, limit 20', await latencies(() => backend.search.search({ botId, scope: { kind: 'all' }, text: text(), limit: 20 }))])
    rows.push([
      mode === 'pgvector' ? 'raw SQL: HNSW ORDER BY <=>, 100 rows' : 'raw SQL: read all vectors (bytea)',
      await latencies(() => rawNearest(sql, mode, next())),
    ])
    rows.push(['port: hybrid, limit 20', await latencies(() => backend.search.search({ botId, scope: { kind: 'all' }, text: text(), limit: 20, vector: { embedderId: 'bench', values: next() } }))])
    rows.push([
      'port: hybrid + tag filter, limit 20',
      await latencies(() =>
        backend.search.search({ botId, scope: { kind: 'all' }, tags: [{ key: 'lang', anyOf: ['en'] }], text: text(), limit: 20, vector: { embedderId: 'bench', values: next() } }),
      ),
    ])
    for (const [name, { p50, p95 }] of rows) console.log(`  ${name.padEnd(44)} p50 ${p50.toFixed(2).padStart(8)} ms   p95 ${p95.toFixed(2).padStart(8)} ms`)
  } finally {
    await close()
  }
}

function rawNearest(sql: PgSql, mode: VectorMode, values: Float32Array): Promise<unknown> {
  if (mode === 'pgvector') {
    const n = sql.unsafe(String(values.length))
    return sql`SELECT seq FROM search_passages ORDER BY embedding::vector(${n}) <=> ${pgvectorLiteral(values)}::vector(${n}) LIMIT 100`
  }
  // The floor of the exact mode: reading every vector's bytes, without the join, the filters or the arithmetic.
  return sql`SELECT seq::text AS seq, embedding FROM search_passages WHERE embedder_id = 'bench'`
}

const real = await realPostgresDatabase()
try {
  await measure('PostgreSQL 15, exact vectors', real, 'exact')
} finally {
  await real.drop()
}
const lite = await pgliteDatabase({ withVector: true })
try {
  await measure('PGlite 0.3 (WebAssembly), pgvector HNSW', lite, 'pgvector')
} finally {
  await lite.drop()
}
