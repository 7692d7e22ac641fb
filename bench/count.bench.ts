/**
 * Row count benchmark: `npx tsx bench/count.bench.ts [--rows 100000] [--engine sqlite|postgres]`.
 *
 * A real server with one table of `--rows` rows (three columns, each indexed); medians of 200 interleaved runs of
 * each way to count every row, beside the baseline: the engine's own `SELECT count(*)` on a second connection to the
 * same database. Ways: `getTable` through the store (its `rows`), `getTable` through the in-process app (auth, JSON),
 * and `findTableRows` `group: { id: 'count' }` through the store and the app; then a filtered count
 * (`category = "cat7"`, a tenth of the rows) with `group`, beside the same `count(*) … WHERE` raw.
 * SQLite: a file-backed data folder. PostgreSQL: a fresh database on the test server (`BOTSHELF_TEST_POSTGRES_URL`,
 * default 127.0.0.1:5432), vacuumed and analyzed after the load (as autovacuum would leave it), dropped at the end.
 * Prints a Markdown table for bench/README.md (decisions 1474, 1479).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createServer } from '../server/src/http/server.js'
import { openDatabase } from '../server/src/store/sqlite/connect.js'
import { connectPostgres } from '../server/src/store/postgres/connect.js'
import { openPostgresBackend } from '../server/src/store/postgres/backend.js'
import { createTestDatabase, type TestDatabase } from '../server/src/store/postgres/test-database.test-support.js'

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? process.argv[index + 1]! : fallback
}
const ROWS = Number(option('rows', '100000'))
const engine = option('engine', 'sqlite')
if (engine !== 'sqlite' && engine !== 'postgres') throw new Error(`--engine: expected sqlite or postgres, received ${engine}`)
const RUNS = 200

const dir = mkdtempSync(join(tmpdir(), 'botshelf-bench-count-'))
let database: TestDatabase | undefined
let pgBackend: Awaited<ReturnType<typeof openPostgresBackend>> | undefined
let server: Awaited<ReturnType<typeof createServer>>
if (engine === 'postgres') {
  database = await createTestDatabase()
  pgBackend = await openPostgresBackend({ url: database.url, dataDir: join(dir, 'app') })
  server = await createServer({ backend: pgBackend, port: 0, logger: { log() {} } })
} else {
  server = await createServer({ dataDir: join(dir, 'app'), port: 0, logger: { log() {} } })
}
const bot = await server.app.admin.createBot({ name: 'bench' })
const { token } = await server.app.admin.createToken({ botId: bot.id, role: 'bot' })
const headers = { authorization: `Bearer ${token}`, 'x-bot-id': bot.id, 'content-type': 'application/json' }
const { tables } = server.app.services.backend
await tables.createTable(bot.id, { name: 'countTable', schema: { name: '', score: 0, category: '' } })
for (let from = 0; from < ROWS; from += 10_000) {
  const count = Math.min(10_000, ROWS - from)
  await tables.importRows(bot.id, 'countTable', Array.from({ length: count }, (_, k) => from + k).map((i) => ({ name: `user-${i}`, score: i % 997, category: `cat${i % 10}` })))
}
const { physical, physicalMap } = await tables.loadTable(bot.id, 'countTable')
const category = physicalMap['category']!

/** The engine's own counts on a connection of their own: the whole table, and the rows of one category. */
interface RawCounts {
  count(): Promise<number>
  filtered(value: string): Promise<number>
  close(): Promise<void>
}
let raw: RawCounts
if (database) {
  const sql = connectPostgres({ url: database.url, statementTimeoutMs: 0 })
  await sql.unsafe(`VACUUM ANALYZE "${physical}"`)
  raw = {
    count: async () => (await sql.unsafe(`SELECT count(*)::int AS n FROM "${physical}"`, [], { prepare: true }))[0]!['n'] as number,
    filtered: async (value) => (await sql.unsafe(`SELECT count(*)::int AS n FROM "${physical}" WHERE "${category}" = $1`, [value], { prepare: true }))[0]!['n'] as number,
    close: () => sql.end(),
  }
} else {
  const db = openDatabase(join(dir, 'app', 'botshelf.db'))
  const rawCount = db.prepare(`SELECT count(*) FROM "${physical}"`).pluck()
  const rawFiltered = db.prepare(`SELECT count(*) FROM "${physical}" WHERE "${category}" = ?`).pluck()
  raw = { count: async () => rawCount.get() as number, filtered: async (value) => rawFiltered.get(value) as number, close: async () => void db.close() }
}
const viaHttp = async (method: string, path: string, body?: unknown) => {
  const res = await server.app.fetch(new Request(`http://bench.local${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) }))
  return res.json() as Promise<any>
}

const ways: Record<string, () => Promise<number>> = {
  'raw `SELECT count(*)` (baseline)': () => raw.count(),
  '`getTable` → `rows`, store': async () => (await tables.getTable(bot.id, 'countTable')).rows,
  '`getTable` → `rows`, in-process HTTP': async () => (await viaHttp('GET', '/v1/tables/countTable')).rows,
  "`group: { id: 'count' }`, store": async () => (await tables.findRows(bot.id, 'countTable', { group: { id: 'count' } })).rows[0]!['idCount'] as number,
  "`group: { id: 'count' }`, in-process HTTP": async () => (await viaHttp('POST', '/v1/tables/countTable/rows/find', { group: { id: 'count' } })).rows[0].idCount,
  'raw `count(*) WHERE c = ?` (baseline, a tenth of the rows)': () => raw.filtered('cat7'),
  "filtered `group: { id: 'count' }`, store": async () =>
    (await tables.findRows(bot.id, 'countTable', { filter: { category: 'cat7' }, group: { id: 'count' } })).rows[0]!['idCount'] as number,
}
const times = new Map<string, number[]>(Object.keys(ways).map((k) => [k, []]))
for (let run = 0; run < RUNS; run++) {
  for (const [name, way] of Object.entries(ways)) {
    const t0 = performance.now()
    const n = await way()
    times.get(name)!.push(performance.now() - t0)
    if (run === 0 && n !== (name.includes('a tenth') || name.includes('filtered') ? ROWS / 10 : ROWS)) throw new Error(`${name} counted ${n}`)
  }
}
await raw.close()
await server.close()
await pgBackend?.close()
await database?.drop()
rmSync(dir, { recursive: true, force: true })

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const base = median(times.get('raw `SELECT count(*)` (baseline)')!)
const filteredBase = median(times.get('raw `count(*) WHERE c = ?` (baseline, a tenth of the rows)')!)
console.log(`Machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}. Date: ${new Date().toISOString().slice(0, 10)}. Load average: ${loadavg()[0]!.toFixed(1)}.`)
console.log('')
console.log(`| count of a ${ROWS.toLocaleString('en')}-row table (${engine === 'postgres' ? 'PostgreSQL' : 'SQLite'}) | median ms | / raw count |`)
console.log('|---|---:|---:|')
for (const [name, values] of times) {
  const against = name.includes('a tenth') || name.includes('filtered') ? filteredBase : base
  console.log(`| ${name} | ${median(values).toFixed(3)} | ${(median(values) / against).toFixed(2)} |`)
}
