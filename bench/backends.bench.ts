/**
 * Backends bench: the files, tables and search ports on SQLite and on PostgreSQL, each beside the bare SQL that does
 * the same read or write on the same engine in the same run (the ratio is botshelf's overhead), and the growth of
 * `listFiles` and `findTableRows` latency from 10k to 1M rows.
 *
 *   npm run bench:backends                                   # both engines, 10k, 100k and 1M rows
 *   npx tsx bench/backends.bench.ts --backend postgres       # one engine: sqlite | postgres | both
 *   npx tsx bench/backends.bench.ts --rows 10000,100000 --samples 100
 *
 * What is measured, through the ports (`Backend` as `openSqliteBackend` / `openPostgresBackend` return it, the
 * objects the server's routes call; no HTTP), against bare SQL (bench/backends/*-engine.ts):
 * - files: upsertFile + the content commit (`files.upsert` + `files.completeUpload`: the metadata writes of an
 *   upload, the bytes' own cost is in files.bench.ts and s3-upload.bench.ts), `getFile` (`files.getById`);
 * - tables: insert (`createRows`, 100 rows a call), find with a filter (`findRows`, `amount >= x` by id), group
 *   (count and sum of amount per category);
 * - search: lexical search of two words, 20 hits (`search.search`, 10k passages);
 * - growth: a page of 20 and of 100 files (`files.list`, newest first, from a random keyset position) and of rows
 *   (`findRows` with the filter) at 10k, 100k and 1M rows, p50 and p95.
 * The big sets are made by bulk SQL into the ports' own tables (after their migrations, and for user tables after
 * `createTable`): one `INSERT ... SELECT` over `generate_series` (PostgreSQL) or a recursive CTE (SQLite), then
 * ANALYZE. Port and bare SQL calls are interleaved so that both see the same moments of a noisy machine.
 * Prints Markdown for bench/README.md and a RATIO line per comparison (goal on PostgreSQL: overhead at most 2x,
 * ratio = raw / port >= 0.5).
 */
import { parseArgs } from 'node:util'
import { cpus, loadavg } from 'node:os'
import type { Engine } from './backends/engine.js'
import { benchCreatedAt, benchFileId, benchRow, physicalOf, TABLE_SCHEMA } from './backends/engine.js'
import { compare, seeded, type Comparison } from './backends/measure.js'
import { openPostgresEngine } from './backends/postgres-engine.js'
import { openSqliteEngine } from './backends/sqlite-engine.js'
import { printRatio } from './report/index.js'

const { values } = parseArgs({
  options: {
    backend: { type: 'string', default: 'both' },
    rows: { type: 'string', default: '10000,100000,1000000' },
    samples: { type: 'string', default: '200' },
    passages: { type: 'string', default: '10000' },
  },
})
const backendNames = values.backend === 'both' ? ['sqlite', 'postgres'] : [values.backend]
for (const name of backendNames) {
  if (name !== 'sqlite' && name !== 'postgres') throw new Error(`--backend: expected sqlite, postgres or both, received ${JSON.stringify(values.backend)}`)
}
const sizes = values.rows.split(',').map((text) => {
  const size = Number(text.trim())
  if (!Number.isInteger(size) || size < 200) throw new Error(`--rows: expected row counts of at least 200 like 10000,100000, received ${JSON.stringify(text)}`)
  return size
})
const samples = Number(values.samples)
const passages = Number(values.passages)

const lines: string[] = []
const say = (line: string) => {
  lines.push(line)
  console.log(line)
}
const ms = (value: number) => value.toFixed(value < 1 ? 3 : 2)

function report(engine: Engine, subject: string, row: string, result: Comparison): void {
  const overhead = result.port.p50 / result.raw.p50
  say(`| ${engine.name} | ${subject} | ${row} | ${ms(result.port.p50)} / ${ms(result.port.p95)} | ${ms(result.raw.p50)} / ${ms(result.raw.p95)} | ${overhead.toFixed(2)}x |`)
  printRatio({
    bench: 'backends',
    row: `${engine.name}: ${subject}, ${row} (p50)`,
    botshelf: result.port.p50,
    baseline: result.raw.p50,
    unit: 'ms',
    lowerIsBetter: true,
    ...(engine.name === 'postgres' ? { goal: 0.5 } : {}),
  })
}

const fileInput = (botId: string, key: string) => ({
  botId, key, ownerScope: '', owner: { type: 'bot' as const, id: botId }, size: 10, contentType: 'text/plain',
  tags: {}, metadata: {}, accessPolicies: [], index: false, expiresAt: null,
})

async function filesRatios(engine: Engine): Promise<void> {
  const { backend } = engine
  const botId = 'bot_ratio'
  const ids: string[] = []
  const upserts = await compare(
    samples,
    async (i) => {
      const { file } = await backend.files.upsert(fileInput(botId, `ratio/${i}`))
      await backend.files.completeUpload(file.id, file.version, { blobId: `blob_port${i}`, size: 10, sha256: 'f'.repeat(64) })
      ids.push(file.id)
    },
    (i) => engine.rawUpsertAndComplete('bot_raw', `ratio/${i}`, i),
  )
  report(engine, 'files', 'upsertFile + content commit', upserts)
  const random = seeded(7)
  const pick = () => ids[Math.floor(random() * ids.length)]!
  const gets = await compare(
    samples,
    async () => backend.files.getById(botId, pick()),
    async () => engine.rawGetFile(botId, pick()),
  )
  report(engine, 'files', 'getFile', gets)
}

async function tablesRatios(engine: Engine): Promise<void> {
  const { tables } = engine.backend
  const botId = 'bot_ratio'
  await tables.createTable(botId, { name: 'portInsertTable', schema: TABLE_SCHEMA })
  await tables.createTable(botId, { name: 'rawInsertTable', schema: TABLE_SCHEMA })
  const raw = physicalOf(await tables.loadTable(botId, 'rawInsertTable'))
  const batch = (i: number) => Array.from({ length: 100 }, (_, n) => benchRow(i * 100 + n))
  const inserts = await compare(
    Math.max(20, Math.floor(samples / 4)),
    (i) => tables.createRows(botId, 'portInsertTable', batch(i)),
    (i) => engine.rawInsertRows(raw, batch(i)),
  )
  report(engine, 'tables', 'insert 100 rows (createRows)', inserts)
}

async function searchRatios(engine: Engine): Promise<void> {
  const { backend } = engine
  const botId = 'bot_search'
  const random = seeded(3)
  const vocabulary = Array.from({ length: 5_000 }, (_, i) => `w${i.toString(36)}`)
  const word = () => vocabulary[Math.floor(random() ** 2 * vocabulary.length)]!
  const perFile = 50
  const started = performance.now()
  for (let f = 0; f < passages / perFile; f++) {
    const { file } = await backend.files.upsert({ ...fileInput(botId, `search/${f}.md`), index: true })
    const list = Array.from({ length: perFile }, () => ({ content: Array.from({ length: 30 }, word).join(' '), subtype: 'paragraph' as const, breadcrumb: [], vector: null }))
    await backend.search.replacePassages({ fileId: file.id, botId, embedderId: null, passages: list })
  }
  await engine.analyze()
  say(`| ${engine.name} | search | (${passages} passages indexed through the port in ${((performance.now() - started) / 1000).toFixed(1)} s) | | | |`)
  const queries = Array.from({ length: samples + 10 }, () => [word(), word()])
  const searches = await compare(
    samples,
    (i) => backend.search.search({ botId, scope: { kind: 'all' }, text: queries[i]!.join(' '), limit: 20 }),
    (i) => engine.rawSearch(botId, queries[i]!),
  )
  report(engine, 'search', `lexical, 2 words, 20 hits, ${passages} passages`, searches)
}

async function growth(engine: Engine): Promise<void> {
  const { backend } = engine
  const filesBot = 'bot_growth'
  const tablesBot = 'bot_growth'
  await backend.tables.createTable(tablesBot, { name: 'growthTable', schema: TABLE_SCHEMA })
  const record = await backend.tables.loadTable(tablesBot, 'growthTable')
  const table = physicalOf(record)
  let loaded = 0
  for (const size of sizes) {
    const started = performance.now()
    await engine.bulkFiles(filesBot, loaded, size - 1)
    await engine.bulkRows(record, loaded + 1, size)
    await engine.analyze()
    console.error(`${engine.name}: ${size} files and rows loaded by bulk SQL in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    loaded = size
    for (const pageSize of [20, 100]) {
      const random = seeded(size + pageSize)
      const positions = Array.from({ length: samples + 10 }, () => pageSize + Math.floor(random() * (size - pageSize)))
      const after = (i: number) => ({ value: benchCreatedAt(positions[i]!), id: benchFileId(positions[i]!) })
      const list = await compare(
        samples,
        (i) => backend.files.list({ botId: filesBot, scope: { kind: 'all' }, sortField: 'createdAt', sortDirection: 'desc', pageSize, after: after(i) }),
        (i) => engine.rawListFiles(filesBot, pageSize, after(i)),
      )
      report(engine, 'growth', `listFiles, page of ${pageSize}, ${size.toLocaleString('en')} files`, list)
      const minimum = (i: number) => positions[i]! % 9_000
      const find = await compare(
        samples,
        (i) => backend.tables.findRows(tablesBot, 'growthTable', { filter: { amount: { $gte: minimum(i) } }, limit: pageSize }),
        (i) => engine.rawFindRows(table, minimum(i), pageSize),
      )
      report(engine, 'growth', `findTableRows amount >= x, page of ${pageSize}, ${size.toLocaleString('en')} rows`, find)
    }
    const group = await compare(
      Math.max(5, Math.floor(samples / Math.max(1, size / 10_000))),
      () => backend.tables.findRows(tablesBot, 'growthTable', { group: { category: 'key', amount: ['count', 'sum'] }, limit: 100 }),
      () => engine.rawGroupRows(table),
      2,
    )
    report(engine, 'tables', `group: count and sum per category, ${size.toLocaleString('en')} rows`, group)
  }
}

say(`Backends bench, ${new Date().toISOString()}, ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), load average at start ${loadavg().map((v) => v.toFixed(2)).join(' ')}`)
say('')
say('| engine | subject | operation | port p50 / p95 ms | bare SQL p50 / p95 ms | overhead (p50) |')
say('|---|---|---|---|---|---|')
for (const name of backendNames) {
  const engine = name === 'sqlite' ? await openSqliteEngine() : await openPostgresEngine()
  try {
    await filesRatios(engine)
    await tablesRatios(engine)
    await searchRatios(engine)
    await growth(engine)
  } finally {
    await engine.close()
  }
}
say('')
say(`load average at end ${loadavg().map((v) => v.toFixed(2)).join(' ')}`)
