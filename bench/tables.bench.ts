/**
 * Tables benchmark: `npx tsx bench/tables.bench.ts [--rows 1000000]`.
 *
 * Measures, each beside the same work done directly on better-sqlite3 (the baseline, same table shape and
 * indexes), so the ratio is botshelf's overhead:
 * 1. rows inserted per second in 1000-row batches (store `createRows` vs a prepared INSERT in a transaction);
 * 2. `findTableRows` latency on the big table: an indexed equality filter and a range filter, through the
 *    store and through the whole in-process HTTP app (`app.fetch`), vs the direct SQL query;
 * 3. a `group` count over 100k rows.
 * Prints a Markdown table for bench/README.md.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createApp } from '../server/src/http/app.js'
import { openDatabase } from '../server/src/store/sqlite/connect.js'

const argRows = process.argv.indexOf('--rows')
const BIG = argRows > 0 ? Number(process.argv[argRows + 1]) : 1_000_000
const GROUP_ROWS = 100_000
const BATCH = 1000
const CATEGORIES = 20

function rowAt(i: number) {
  return { category: `cat${i % CATEGORIES}`, amount: (i * 7919) % 10_000, flag: i % 3 === 0, note: `note number ${i}` }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

const dir = mkdtempSync(join(tmpdir(), 'botshelf-bench-tables-'))
const app = await createApp({ dataDir: join(dir, 'app'), logger: { log() {} } })
const bot = await app.admin.createBot({ name: 'bench' })
const { token } = await app.admin.createToken({ botId: bot.id, role: 'bot' })
const store = app.services.backend.tables
const schema = { category: 'x', amount: 0, flag: true, note: 'x' }
await store.createTable(bot.id, { name: 'bigTable', schema })
await store.createTable(bot.id, { name: 'groupTable', schema })

// Baseline: a plain table with the same columns and indexes, in its own database file.
const raw = openDatabase(join(dir, 'raw.db'))
raw.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
  c1 TEXT, c2 REAL, c3 INTEGER, c4 TEXT);
  CREATE INDEX t_created ON t (created_at); CREATE INDEX t_updated ON t (updated_at);
  CREATE INDEX t_c1 ON t (c1); CREATE INDEX t_c2 ON t (c2); CREATE INDEX t_c3 ON t (c3); CREATE INDEX t_c4 ON t (c4);`)
const rawInsert = raw.prepare('INSERT INTO t (created_at, updated_at, c1, c2, c3, c4) VALUES (?, ?, ?, ?, ?, ?)')
const rawBatch = raw.transaction((rows: ReturnType<typeof rowAt>[]) => {
  const now = new Date().toISOString()
  for (const r of rows) rawInsert.run(now, now, r.category, r.amount, r.flag ? 1 : 0, r.note)
})

function batchAt(start: number) {
  return Array.from({ length: BATCH }, (_, k) => rowAt(start + k))
}

console.error(`inserting ${BIG} rows in batches of ${BATCH} (store and baseline)...`)
let storeMs = 0
let rawMs = 0
for (let start = 0; start < BIG; start += BATCH) {
  const rows = batchAt(start)
  let t0 = performance.now()
  await store.createRows(bot.id, 'bigTable', rows)
  storeMs += performance.now() - t0
  t0 = performance.now()
  rawBatch(rows)
  rawMs += performance.now() - t0
  if (start % 100_000 === 0) console.error(`  ${start}`)
}
for (let start = 0; start < GROUP_ROWS; start += BATCH) await store.createRows(bot.id, 'groupTable', batchAt(start))
const rawGroup = openDatabase(join(dir, 'raw-group.db'))
rawGroup.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, c1 TEXT, c2 REAL, c3 INTEGER, c4 TEXT);
  CREATE INDEX t_created ON t (created_at); CREATE INDEX t_updated ON t (updated_at);
  CREATE INDEX t_c1 ON t (c1); CREATE INDEX t_c2 ON t (c2); CREATE INDEX t_c3 ON t (c3); CREATE INDEX t_c4 ON t (c4);`)
{
  const ins = rawGroup.prepare('INSERT INTO t (created_at, updated_at, c1, c2, c3, c4) VALUES (?, ?, ?, ?, ?, ?)')
  // Same row shape as the store's rows (ISO timestamps), so both read the same number of pages.
  const stamp = new Date().toISOString()
  rawGroup.transaction(() => {
    for (let i = 0; i < GROUP_ROWS; i++) {
      const r = rowAt(i)
      ins.run(stamp, stamp, r.category, r.amount, r.flag ? 1 : 0, r.note)
    }
  })()
}

const results: Array<{ what: string; botshelf: string; http?: string; baseline: string; ratio: string }> = []
const storeRate = (BIG / storeMs) * 1000
const rawRate = (BIG / rawMs) * 1000
results.push({
  what: `insert, 1000-row batches (${BIG.toLocaleString('en-US')} rows)`,
  botshelf: `${Math.round(storeRate).toLocaleString('en-US')} rows/s`,
  baseline: `${Math.round(rawRate).toLocaleString('en-US')} rows/s`,
  ratio: `${(rawRate / storeRate).toFixed(2)}×`,
})

async function httpFind(table: string, body: unknown) {
  const res = await app.fetch(
    new Request(`http://bench/v1/tables/${table}/rows/find`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-bot-id': bot.id, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  )
  if (res.status !== 200) throw new Error(`findTableRows: ${res.status} ${await res.text()}`)
  return res.json()
}

const rawEq = raw.prepare('SELECT id, created_at, updated_at, c1, c2, c3, c4 FROM t WHERE c1 = ? ORDER BY id LIMIT ? OFFSET ?')
const rawRange = raw.prepare('SELECT id, created_at, updated_at, c1, c2, c3, c4 FROM t WHERE c2 >= ? AND c2 < ? ORDER BY id LIMIT ? OFFSET ?')
const rawGroupStmt = rawGroup.prepare('SELECT c1, COUNT(c2) FROM t GROUP BY c1 ORDER BY c1 LIMIT ? OFFSET ?')

const queries = [
  {
    what: `findTableRows, indexed equality (\`category = "cat7"\`), limit 100, ${BIG.toLocaleString('en-US')} rows`,
    table: 'bigTable',
    body: { filter: { category: 'cat7' }, limit: 100 },
    base: () => rawEq.all('cat7', 101, 0),
  },
  {
    what: `findTableRows, range (\`5000 ≤ amount < 5100\`), limit 100, ${BIG.toLocaleString('en-US')} rows`,
    table: 'bigTable',
    body: { filter: { amount: { $gte: 5000, $lt: 5100 } }, limit: 100 },
    base: () => rawRange.all(5000, 5100, 101, 0),
  },
  {
    what: `group count by category, ${GROUP_ROWS.toLocaleString('en-US')} rows`,
    table: 'groupTable',
    body: { group: { category: 'key', amount: 'count' } },
    base: () => rawGroupStmt.all(101, 0),
  },
]

for (const q of queries) {
  const ours = await store.findRows(bot.id, q.table, q.body as never)
  if (ours.rows.length === 0) throw new Error(`${q.what}: no rows`)
  // Interleave the three so cache warmth and GC hit them alike; report medians.
  const storeSamples: number[] = []
  const httpSamples: number[] = []
  const baseSamples: number[] = []
  for (let i = 0; i < 45; i++) {
    // Let the previous HTTP call's leftover callbacks run first, so they are not timed with the store's await.
    await new Promise((resolve) => setImmediate(resolve))
    let t0 = performance.now()
    q.base()
    const base = performance.now() - t0
    t0 = performance.now()
    await store.findRows(bot.id, q.table, q.body as never)
    const direct = performance.now() - t0
    t0 = performance.now()
    await httpFind(q.table, q.body)
    const http = performance.now() - t0
    if (i >= 5) {
      baseSamples.push(base)
      storeSamples.push(direct)
      httpSamples.push(http)
    }
  }
  const storeLatency = median(storeSamples)
  const httpLatency = median(httpSamples)
  const baseLatency = median(baseSamples)
  results.push({
    what: q.what,
    botshelf: `${storeLatency.toFixed(2)} ms`,
    http: `${httpLatency.toFixed(2)} ms`,
    baseline: `${baseLatency.toFixed(2)} ms`,
    ratio: `${(storeLatency / baseLatency).toFixed(2)}× (HTTP ${(httpLatency / baseLatency).toFixed(2)}×)`,
  })
}

const cpu = cpus()[0]?.model ?? 'unknown CPU'
console.log(`Machine: ${cpus().length} cores (${cpu}), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`)
console.log('')
console.log('| measure | botshelf store | botshelf in-process HTTP | better-sqlite3 direct | overhead |')
console.log('|---|---|---|---|---|')
for (const r of results) console.log(`| ${r.what} | ${r.botshelf} | ${r.http ?? '—'} | ${r.baseline} | ${r.ratio} |`)

await app.close()
raw.close()
rawGroup.close()
rmSync(dir, { recursive: true, force: true })
