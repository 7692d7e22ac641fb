/**
 * Row count benchmark: `npx tsx bench/count.bench.ts [--rows 100000]`.
 *
 * A real server (file-backed SQLite) with one table of `--rows` rows (three columns, each indexed); medians of 200
 * interleaved runs of each way to count every row, beside the baseline: the engine's own `SELECT count(*)` on a
 * second connection to the same database file. Ways: `getTable` through the store (its `rows`), `getTable` through
 * the in-process app (auth, JSON), and `findTableRows` `group: { id: 'count' }` through the store and the app; then a
 * filtered count (`category = "cat7"`, a tenth of the rows) with `group`, beside the same `count(*) … WHERE` raw.
 * Prints a Markdown table for bench/README.md (decision 1474).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createServer } from '../server/src/http/server.js'
import { openDatabase } from '../server/src/store/sqlite/connect.js'

const argRows = process.argv.indexOf('--rows')
const ROWS = argRows > 0 ? Number(process.argv[argRows + 1]) : 100_000
const RUNS = 200

const dir = mkdtempSync(join(tmpdir(), 'botshelf-bench-count-'))
const server = await createServer({ dataDir: join(dir, 'app'), port: 0, logger: { log() {} } })
const bot = await server.app.admin.createBot({ name: 'bench' })
const { token } = await server.app.admin.createToken({ botId: bot.id, role: 'bot' })
const headers = { authorization: `Bearer ${token}`, 'x-bot-id': bot.id, 'content-type': 'application/json' }
const { tables } = server.app.services.backend
await tables.createTable(bot.id, { name: 'countTable', schema: { name: '', score: 0, category: '' } })
await tables.importRows(bot.id, 'countTable', Array.from({ length: ROWS }, (_, i) => ({ name: `user-${i}`, score: i % 997, category: `cat${i % 10}` })))
const physical = (await tables.loadTable(bot.id, 'countTable')).physical

const raw = openDatabase(join(dir, 'app', 'botshelf.db'))
const rawCount = raw.prepare(`SELECT count(*) FROM "${physical}"`).pluck()
const rawFiltered = raw.prepare(`SELECT count(*) FROM "${physical}" WHERE c3 = ?`).pluck()
const viaHttp = async (method: string, path: string, body?: unknown) => {
  const res = await server.app.fetch(new Request(`http://bench.local${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) }))
  return res.json() as Promise<any>
}

const ways: Record<string, () => Promise<number>> = {
  'raw `SELECT count(*)` (baseline)': async () => rawCount.get() as number,
  '`getTable` → `rows`, store': async () => (await tables.getTable(bot.id, 'countTable')).rows,
  '`getTable` → `rows`, in-process HTTP': async () => (await viaHttp('GET', '/v1/tables/countTable')).rows,
  "`group: { id: 'count' }`, store": async () => (await tables.findRows(bot.id, 'countTable', { group: { id: 'count' } })).rows[0]!['idCount'] as number,
  "`group: { id: 'count' }`, in-process HTTP": async () => (await viaHttp('POST', '/v1/tables/countTable/rows/find', { group: { id: 'count' } })).rows[0].idCount,
  'raw `count(*) WHERE c = ?` (baseline, a tenth of the rows)': async () => rawFiltered.get('cat7') as number,
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
raw.close()
await server.close()
rmSync(dir, { recursive: true, force: true })

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const base = median(times.get('raw `SELECT count(*)` (baseline)')!)
const filteredBase = median(times.get('raw `count(*) WHERE c = ?` (baseline, a tenth of the rows)')!)
console.log(`Machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}. Date: ${new Date().toISOString().slice(0, 10)}. Load average: ${loadavg()[0]!.toFixed(1)}.`)
console.log('')
console.log(`| count of a ${ROWS.toLocaleString('en')}-row table (SQLite) | median ms | / raw count |`)
console.log('|---|---:|---:|')
for (const [name, values] of times) {
  const against = name.includes('a tenth') || name.includes('filtered') ? filteredBase : base
  console.log(`| ${name} | ${median(values).toFixed(3)} | ${(median(values) / against).toFixed(2)} |`)
}
