/**
 * Growth bench (issue 29): how `listFiles`, `findTableRows` and hybrid search cost as the data grows to millions,
 * on SQLite and PostgreSQL, measured through the real server (`botshelf serve` in a child process) and its HTTP API,
 * with the server's RSS sampled during each measure.
 *
 * For each size the data is generated (no download) and written straight into the ports' own tables by bulk SQL
 * while the server is stopped (`bench/growth/load-*.ts`; the API would take hours at these sizes), then the server
 * starts on it (the time to listen is reported) and answers:
 *
 * - files: the first page (20, newest first), the first page with a tag filter keeping 1/7, then every page of 100
 *   following `nextToken` to the end of the list: p50/p95 of the first 50 pages, of 50 pages around the middle and
 *   of the last 50 (a cursor deep into the list);
 * - tables (`growthTable`, every scalar column indexed): an indexed equality filter (1/20 of rows), a range ordered by
 *   its column, an order alone, a group over an indexed filter (1/200 of rows), and a group over the whole table;
 * - search: hybrid `searchFiles` (query text embedded by the server's offline embedder), unfiltered and with a tag
 *   filter keeping 1/7 of the files, after the server trained its vector lists at open (SQLite; the training time is
 *   reported); then, server stopped, recall@10 of the port's vector ranking against exact search over the same
 *   vectors, unfiltered and filtered (`--recall-queries`).
 *
 * Each size's rows carry the same run's `GET /health` p50 (the floor of a request on the machine at that moment).
 *
 *   npm run bench:growth -- --engine sqlite --measures files,tables --size 10000,100000,1000000
 *   npm run bench:growth -- --engine postgres --measures tables --size 10000000 --queries 20
 *   npm run bench:growth -- --engine sqlite --measures search --size 10000,100000,1000000 --recall-queries 100
 *
 * `--root <checkout>` runs that checkout's built server instead of this one's.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import Database from 'better-sqlite3'
import { Client } from '../src/client/index.js'
import { openSqliteBackend } from '../server/src/store/sqlite/backend.js'
import { openPostgresBackend } from '../server/src/store/postgres/backend.js'
import { createTestDatabase, type TestDatabase } from '../server/src/store/postgres/test-database.test-support.js'
import { startServe, type ServeProcess } from './support/serve-process.js'
import { latency, summarize, type Latency } from './growth/latency.js'
import { loadSqliteFiles, loadSqlitePassages, loadSqliteRows } from './growth/load-sqlite.js'
import { loadPostgresFiles, loadPostgresPassages, loadPostgresRows } from './growth/load-postgres.js'
import { passageSet, PASSAGES_PER_FILE, SHARD_KEPT, type PassageSet } from './growth/passages.js'
import { sampleRss, rssMb } from './growth/rss.js'

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? process.argv[index + 1]! : fallback
}
const engine = option('engine', 'sqlite') as 'sqlite' | 'postgres'
if (engine !== 'sqlite' && engine !== 'postgres') throw new Error(`--engine: expected sqlite or postgres, received ${engine}`)
const sizes = option('size', '10000,100000').split(',').map(Number)
const measures = option('measures', 'files,tables,search').split(',')
const queries = Number(option('queries', '40'))
const recallQueries = Number(option('recall-queries', '100'))
// Another checkout whose built server runs (e.g. a copy of this one's dist/, so that editing the sources while a long
// run goes on does not send the server back to tsx).
const serveRoot = process.argv.includes('--root') ? option('root', '') : undefined

const rows: string[] = []
const notes: string[] = []
const load = () => loadavg()[0]!.toFixed(1)
const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(value >= 10 ? 1 : 2))

function report(measure: string, size: number, name: string, result: Latency, peakMb: number, floor: Latency): void {
  rows.push(`| ${engine} | ${measure} | ${size.toLocaleString('en')} | ${name} | ${ms(result.p50)} | ${ms(result.p95)} | ${result.count} | ${(result.p50 / floor.p50).toFixed(1)} | ${peakMb.toFixed(0)} | ${load()} |`)
  console.error(`${measure} ${size} ${name}: p50 ${ms(result.p50)} ms, p95 ${ms(result.p95)} ms, peak RSS ${peakMb.toFixed(0)} MB, load ${load()}`)
}

/** A fresh place for one size: a folder for the data folder and, on PostgreSQL, a database. */
async function freshStore(): Promise<{ folder: string; database?: TestDatabase; args: string[] }> {
  const folder = mkdtempSync(join(tmpdir(), 'botshelf-growth-'))
  if (engine === 'sqlite') return { folder, args: ['--rate-limit', 'off', '--log-level', 'warn'] }
  const database = await createTestDatabase()
  return { folder, database, args: ['--rate-limit', 'off', '--log-level', 'warn', '--database', database.url] }
}

async function measureOne(measure: string, size: number, set: PassageSet | undefined): Promise<void> {
  const store = await freshStore()
  const dataDir = join(store.folder, 'data')
  try {
    const first = await startServe({ dataDir: store.folder, args: store.args, ...(serveRoot ? { root: serveRoot } : {}) })
    const { botId, token } = first
    await first.stop()
    const loaded =
      measure === 'files'
        ? await (engine === 'sqlite' ? loadSqliteFiles(dataDir, botId, size) : loadPostgresFiles(store.database!.url, botId, size))
        : measure === 'tables'
          ? await (engine === 'sqlite' ? loadSqliteRows(dataDir, botId, size) : loadPostgresRows(store.database!.url, botId, size))
          : await (engine === 'sqlite' ? loadSqlitePassages(dataDir, botId, size, set!) : loadPostgresPassages(store.database!.url, botId, size, set!))
    const startAt = performance.now()
    const serve = await startServe({ dataDir: store.folder, args: store.args, ...(serveRoot ? { root: serveRoot } : {}) })
    const listenMs = performance.now() - startAt
    try {
      const client = new Client({ apiUrl: serve.url, token, botId })
      const pid = serve.process.pid!
      const floor = await latency(queries, () => fetch(`${serve.url}/health`).then((answer) => answer.text()))
      let trainingNote = ''
      if (measure === 'search' && engine === 'sqlite') {
        // The training's memory too: the vectors read for it are held (and handed to its worker) until it commits.
        const { result, rss } = await sampleRss(pid, () => waitForLists(dataDir, size), 200)
        trainingNote = `${result}; server peak RSS meanwhile ${rss.peakMb.toFixed(0)} MB`
      }
      const idleMb = rssMb(pid)
      notes.push(`| ${engine} | ${measure} | ${size.toLocaleString('en')} | ${loaded.seconds.toFixed(0)} | ${listenMs.toFixed(0)} | ${idleMb.toFixed(0)} | ${ms(floor.p50)} | ${trainingNote} |`)
      const run = async (name: string, count: number, call: (i: number) => Promise<unknown>, warmUp = 3) => {
        const { result, rss } = await sampleRss(pid, () => latency(count, call, warmUp))
        report(measure, size, name, result, rss.peakMb, floor)
      }
      if (measure === 'files') await filesMeasures(client, size, run, pid, floor)
      if (measure === 'tables') await tablesMeasures(client, run)
      if (measure === 'search') await searchMeasures(client, set!, run)
    } finally {
      await serve.stop()
    }
    if (measure === 'search') await recallOf(store, dataDir, size, set!)
  } finally {
    await store.database?.drop()
    rmSync(store.folder, { recursive: true, force: true })
  }
}

type Run = (name: string, count: number, call: (i: number) => Promise<unknown>, warmUp?: number) => Promise<void>

async function filesMeasures(client: Client, size: number, run: Run, pid: number, floor: Latency): Promise<void> {
  await run('listFiles, first page (20, newest first)', queries, () => client.listFiles({}))
  await run('listFiles, first page, tag filter keeping 1/7', queries, () => client.listFiles({ tags: { group: 'g3' } }))
  // Every page of 100 to the end of the list, timed by depth.
  const { result: times, rss } = await sampleRss(pid, async () => {
    const times: number[] = []
    let nextToken: string | undefined
    do {
      const start = performance.now()
      const page = await client.listFiles({ pageSize: 100, ...(nextToken ? { nextToken } : {}) })
      times.push(performance.now() - start)
      nextToken = page.meta.nextToken
    } while (nextToken)
    return times
  })
  if (times.length * 100 < size) throw new Error(`listFiles walked ${times.length} pages of 100 for ${size} files`)
  const middle = Math.floor(times.length / 2)
  report('files', size, 'listFiles, pages of 100: first 50 pages', summarize(times.slice(0, 50)), rss.peakMb, floor)
  report('files', size, 'listFiles, pages of 100: 50 pages around the middle (cursor deep in the list)', summarize(times.slice(Math.max(0, middle - 25), middle + 25)), rss.peakMb, floor)
  report('files', size, 'listFiles, pages of 100: last 50 pages', summarize(times.slice(-50)), rss.peakMb, floor)
}

async function tablesMeasures(client: Client, run: Run): Promise<void> {
  const table = 'growthTable'
  await run('findTableRows, indexed equality (category = cat7, 1/20), limit 100', queries, (i) => client.findTableRows({ table, filter: { category: `cat${i % 20}` }, limit: 100 }))
  await run('findTableRows, range ordered by its column (amount >= x, by amount), limit 100', queries, (i) =>
    client.findTableRows({ table, filter: { amount: { $gte: (i * 2_477) % 9_900 } }, orderBy: 'amount', orderDirection: 'asc', limit: 100 }),
  )
  await run('findTableRows, order alone (amount desc), limit 100', queries, () => client.findTableRows({ table, orderBy: 'amount', orderDirection: 'desc', limit: 100 }))
  await run('findTableRows, group by category over an indexed filter (amount < 50, 1/200)', queries, (i) =>
    client.findTableRows({ table, filter: { amount: { $lt: 50 + (i % 2) } }, group: { category: 'key', amount: ['count', 'sum'] } }),
  )
  await run('findTableRows, group by category over the whole table', 3, () => client.findTableRows({ table, group: { category: 'key', amount: 'count' } }), 1)
}

async function searchMeasures(client: Client, set: PassageSet, run: Run): Promise<void> {
  const text = (i: number) => set.queries[i % set.queries.length]!.text
  await run('searchFiles, hybrid, limit 20', queries, (i) => client.searchFiles({ query: text(i), limit: 20 }))
  await run('searchFiles, hybrid, tag filter keeping 1/7, limit 20', queries, (i) => client.searchFiles({ query: text(i), tags: { shard: SHARD_KEPT }, limit: 20 }))
}

/** Waits for the server to train (or decline) the bot's vector lists at open; says how long it took and what it kept. */
async function waitForLists(dataDir: string, size: number): Promise<string> {
  if (size < 20_000) return 'exact (under the lists threshold)'
  const start = performance.now()
  const db = new Database(join(dataDir, 'botshelf.db'), { readonly: true, fileMustExist: true })
  try {
    for (;;) {
      const row = db.prepare('SELECT lists, trained_vectors AS trained, measured_recall AS recall, probes FROM search_vector_lists').get() as
        | { lists: number; trained: number; recall: number; probes: number | null }
        | undefined
      if (row) return `lists trained at open in ${((performance.now() - start) / 1000).toFixed(0)} s: ${row.lists} lists, ${row.probes ?? '(setting)'} probes, estimated recall ${row.recall.toFixed(3)}, ${row.lists > 0 ? 'kept' : 'not kept (exact)'}`
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
  } finally {
    db.close()
  }
}

/** Recall@10 of the port's vector ranking against exact search over the set's vectors, unfiltered and filtered. */
async function recallOf(store: { folder: string; database?: TestDatabase }, dataDir: string, size: number, set: PassageSet): Promise<void> {
  const count = Math.min(recallQueries, set.queries.length)
  const asked = set.queries.slice(0, count)
  // Exact similarities, computed passage by passage (no copy of every vector is kept).
  const similarities = asked.map(() => new Float32Array(size))
  const vector = new Float32Array(set.dimensions)
  for (let n = 0; n < size; n++) {
    set.vector(n, vector)
    for (let q = 0; q < count; q++) {
      const query = asked[q]!.vector
      let sum = 0
      for (let j = 0; j < vector.length; j++) sum += vector[j]! * query[j]!
      similarities[q]![n] = sum
    }
  }
  const kept = (n: number) => String(Math.floor(n / PASSAGES_PER_FILE) % 7) === SHARD_KEPT
  const kth = (values: Float32Array, filter: boolean) => {
    const pool = filter ? values.filter((_, n) => kept(n)) : values.slice()
    pool.sort()
    return pool[pool.length - Math.min(10, pool.length)]!
  }
  const backend = engine === 'sqlite' ? await openSqliteBackend({ dataDir }) : await openPostgresBackend({ url: store.database!.url, dataDir })
  let all = 0
  let filtered = 0
  const vectorTimes: number[] = []
  try {
    const bot = await findBot(store, dataDir)
    for (let q = 0; q < count; q++) {
      for (const filter of [false, true]) {
        const start = performance.now()
        const hits = await backend.search.search({
          botId: bot,
          scope: { kind: 'all' },
          text: '',
          vector: { embedderId: set.embedder.id, values: asked[q]!.vector },
          limit: 10,
          ...(filter ? { tags: [{ key: 'shard', anyOf: [SHARD_KEPT] }] } : {}),
        })
        if (!filter) vectorTimes.push(performance.now() - start)
        const threshold = kth(similarities[q]!, filter) - 1e-6
        const found = hits.filter((hit) => similarities[q]![Number(hit.passage.fileId.slice('file_growth'.length)) * PASSAGES_PER_FILE + hit.passage.position]! >= threshold).length
        if (filter) filtered += found / 10
        else all += found / 10
      }
    }
  } finally {
    await backend.close()
  }
  const vectorOnly = summarize(vectorTimes)
  notes.push(`| ${engine} | search recall | ${size.toLocaleString('en')} | recall@10 vs exact ${(all / count).toFixed(3)}, with the tag filter ${(filtered / count).toFixed(3)} (${count} queries); port vector ranking alone p50 ${ms(vectorOnly.p50)} / p95 ${ms(vectorOnly.p95)} ms | | | | |`)
  console.error(`recall ${size}: ${(all / count).toFixed(3)} / ${(filtered / count).toFixed(3)}`)
}

/** The one bot of a growth data folder or database. */
async function findBot(store: { database?: TestDatabase }, dataDir: string): Promise<string> {
  if (store.database) {
    const [row] = await store.database.admin.unsafe('SELECT bot_id FROM files LIMIT 1')
    return (row as unknown as { bot_id: string }).bot_id
  }
  const db = new Database(join(dataDir, 'botshelf.db'), { readonly: true })
  try {
    return (db.prepare('SELECT bot_id FROM files LIMIT 1').pluck().get() as string)
  } finally {
    db.close()
  }
}

const set = measures.includes('search') ? await passageSet(Math.max(queries, recallQueries)) : undefined
for (const measure of measures) for (const size of sizes) await measureOne(measure, size, set)

console.log(`\nMachine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ${new Date().toISOString()}; load average at the end ${loadavg().map((l) => l.toFixed(1)).join(' / ')}.\n`)
console.log('| engine | measure | size | request | p50 ms | p95 ms | timed calls | p50 / GET /health p50 | server peak RSS MB | load |')
console.log('|---|---|---:|---|---:|---:|---:|---:|---:|---:|')
for (const row of rows) console.log(row)
console.log('\n| engine | measure | size | load s | restart to listening ms | server RSS at rest MB | GET /health p50 ms | vector lists |')
console.log('|---|---|---:|---:|---:|---:|---:|---|')
for (const note of notes) console.log(note)
