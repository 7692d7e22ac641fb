/**
 * Import and export benchmark: `npx tsx bench/transfer.bench.ts [--rows 500000]`.
 *
 * Runs a real server (file-backed SQLite, on a port) and measures, for a CSV of `--rows` rows (about 26 bytes a
 * row, 13 MB at 500,000 as in the report that asked for background jobs):
 * 1. import throughput (rows/s and MB/s of CSV) from the request to the job's `completed`, beside two baselines
 *    in the same run: the in-request import the job replaced (the same file decoded and inserted with the store's
 *    `importRows` in one transaction, holding the event loop throughout), and the floor: the same rows parsed with a
 *    plain line split and inserted with one prepared INSERT in one transaction on better-sqlite3 (same columns and
 *    indexes);
 * 2. the event-loop delay while the import runs (p50, p99 and max of `perf_hooks.monitorEventLoopDelay`, in the
 *    server's process) and the wait of `GET /health` calls sent every 50 ms meanwhile;
 * 3. export throughput (rows/s and MB/s of output) for CSV and gzipped JSON, and the event-loop delay meanwhile.
 * Prints Markdown tables for bench/README.md.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { createServer } from '../server/src/http/server.js'
import { openDatabase } from '../server/src/store/sqlite/connect.js'
import { decodeImport } from '../server/src/transfer/index.js'

const argRows = process.argv.indexOf('--rows')
const ROWS = argRows > 0 ? Number(process.argv[argRows + 1]) : 500_000

const dir = mkdtempSync(join(tmpdir(), 'botshelf-bench-transfer-'))
const server = await createServer({ dataDir: join(dir, 'app'), port: 0, logger: { log() {} }, jobs: { pollMs: 50 } })
const bot = await server.app.admin.createBot({ name: 'bench' })
const { token } = await server.app.admin.createToken({ botId: bot.id, role: 'bot' })
const headers = { authorization: `Bearer ${token}`, 'x-bot-id': bot.id, 'content-type': 'application/json' }

async function call(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) })
  const json = await res.json()
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
  return json
}

function csvOf(rows: number): Buffer {
  const lines = ['name,score,city']
  for (let i = 0; i < rows; i++) lines.push(`user-${i},${i % 997},city-${i % 50}`)
  return Buffer.from(`${lines.join('\n')}\n`)
}

async function waitForJob(table: string, jobId: string): Promise<Record<string, any>> {
  for (;;) {
    const { jobs } = await call('GET', `/v1/tables/${table}/jobs`)
    const job = jobs.find((j: { id: string }) => j.id === jobId)
    if (job.status === 'completed') return job
    if (job.status === 'failed') throw new Error(`job failed: ${job.error}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

// ---------------------------------------------------------------- import
const csv = csvOf(ROWS)
const mb = csv.byteLength / 1e6
console.error(`import of ${ROWS} rows (${mb.toFixed(1)} MB of CSV)...`)
await call('POST', '/v1/tables', { name: 'importTable', schema: { name: '', score: 0, city: '' } })
const { file } = await call('PUT', '/v1/files', { key: 'bench/import.csv', size: csv.byteLength })
const put = await fetch(file.uploadUrl, { method: 'PUT', body: csv as unknown as BodyInit })
if (put.status !== 200) throw new Error(`upload failed: ${put.status}`)

const loop = monitorEventLoopDelay({ resolution: 5 })
const healthWaits: number[] = []
let importing = true
const health = (async () => {
  while (importing) {
    const t0 = performance.now()
    await fetch(`${server.url}/health`).then((res) => res.arrayBuffer())
    healthWaits.push(performance.now() - t0)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
})()
loop.enable()
const importStart = performance.now()
const started = await call('POST', '/v1/tables/importTable/import', { fileId: file.id })
await waitForJob('importTable', started.job.id)
const importSeconds = (performance.now() - importStart) / 1000
loop.disable()
importing = false
await health

// The in-request import the job replaced: decode the file and insert every row in one transaction.
await call('POST', '/v1/tables', { name: 'inRequestTable', schema: { name: '', score: 0, city: '' } })
const inRequestStart = performance.now()
{
  const rows: Array<Record<string, unknown>> = []
  const source = (async function* () {
    for (let at = 0; at < csv.byteLength; at += 65_536) yield csv.subarray(at, at + 65_536)
  })()
  const columns = [{ name: 'name', kind: 'string' }, { name: 'score', kind: 'number' }, { name: 'city', kind: 'string' }] as const
  for await (const batch of decodeImport(source, { columns, batchRows: 1000 })) rows.push(...batch)
  await server.app.services.backend.tables.importRows(bot.id, 'inRequestTable', rows)
}
const inRequestSeconds = (performance.now() - inRequestStart) / 1000

// The floor: the same rows, split and inserted directly.
const raw = openDatabase(join(dir, 'raw.db'))
raw.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, c1 TEXT, c2 REAL, c3 TEXT);
  CREATE INDEX t_created ON t (created_at); CREATE INDEX t_updated ON t (updated_at);
  CREATE INDEX t_c1 ON t (c1); CREATE INDEX t_c2 ON t (c2); CREATE INDEX t_c3 ON t (c3);`)
const rawInsert = raw.prepare('INSERT INTO t (created_at, updated_at, c1, c2, c3) VALUES (?, ?, ?, ?, ?)')
const rawStart = performance.now()
raw.transaction(() => {
  const now = new Date().toISOString()
  const lines = csv.toString('utf8').split('\n')
  for (let i = 1; i < lines.length; i++) {
    if (!lines[i]) continue
    const [name, score, city] = lines[i]!.split(',')
    rawInsert.run(now, now, name, Number(score), city)
  }
})()
const rawSeconds = (performance.now() - rawStart) / 1000
raw.close()

// ---------------------------------------------------------------- export
const exports: Array<{ what: string; seconds: number; bytes: number; p99: number; max: number }> = []
for (const [format, compress] of [
  ['csv', false],
  ['json', true],
] as const) {
  const exportLoop = monitorEventLoopDelay({ resolution: 5 })
  exportLoop.enable()
  const t0 = performance.now()
  const { job } = await call('GET', `/v1/tables/importTable/export?format=${format}&compress=${compress}`)
  const done = await waitForJob('importTable', job.id)
  const seconds = (performance.now() - t0) / 1000
  exportLoop.disable()
  const { file: out } = await call('GET', `/v1/files/${done['outputFileId']}`)
  exports.push({ what: `${format}${compress ? ' (gzip)' : ''}`, seconds, bytes: out.size, p99: exportLoop.percentile(99), max: exportLoop.max })
}

await server.close()
rmSync(dir, { recursive: true, force: true })

const ms = (ns: number) => (ns / 1e6).toFixed(1)
console.log(`Machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}. Date: ${new Date().toISOString().slice(0, 10)}.`)
console.log('')
console.log(
  `| import of ${ROWS.toLocaleString('en')} CSV rows (${mb.toFixed(1)} MB) | botshelf (background job) | in-request import (decode + one importRows transaction) | floor: split + one INSERT transaction | job / in-request | job / floor |`,
)
console.log('|---|---:|---:|---:|---:|---:|')
console.log(
  `| rows/s | ${Math.round(ROWS / importSeconds).toLocaleString('en')} | ${Math.round(ROWS / inRequestSeconds).toLocaleString('en')} | ${Math.round(ROWS / rawSeconds).toLocaleString('en')} | ${(inRequestSeconds / importSeconds).toFixed(2)} | ${(rawSeconds / importSeconds).toFixed(2)} |`,
)
console.log(`| MB/s of CSV | ${(mb / importSeconds).toFixed(1)} | ${(mb / inRequestSeconds).toFixed(1)} | ${(mb / rawSeconds).toFixed(1)} | | |`)
console.log('')
console.log('| while the import runs | p50 | p99 | max |')
console.log('|---|---:|---:|---:|')
console.log(`| event-loop delay (ms) | ${ms(loop.percentile(50))} | ${ms(loop.percentile(99))} | ${ms(loop.max)} |`)
console.log(
  `| GET /health wait (ms, ${healthWaits.length} calls) | ${percentile(healthWaits, 50).toFixed(1)} | ${percentile(healthWaits, 99).toFixed(1)} | ${Math.max(...healthWaits).toFixed(1)} |`,
)
console.log('')
console.log('| export | rows/s | MB/s of output | output size | event-loop delay p99 / max (ms) |')
console.log('|---|---:|---:|---:|---:|')
for (const e of exports) {
  console.log(
    `| ${e.what} | ${Math.round(ROWS / e.seconds).toLocaleString('en')} | ${(e.bytes / 1e6 / e.seconds).toFixed(1)} | ${(e.bytes / 1e6).toFixed(1)} MB | ${ms(e.p99)} / ${ms(e.max)} |`,
  )
}
