/**
 * Dataset export and import benchmark: `node --expose-gc --import tsx bench/dataset.bench.ts [--rows 100000] [--files 40] [--file-mb 1] [--postgres URL]`
 * (`npx tsx bench/dataset.bench.ts` works too, without the heap figure after a collection).
 *
 * Builds an embedded dataset (file-backed SQLite and its content folder) of one table of `--rows` rows and
 * `--files` files of `--file-mb` MB, then measures in the same run:
 * 1. `exportDataset` to an archive folder: rows/s of the table and MB/s of content, beside the floor for each: the
 *    same rows read with one SELECT and written as JSON lines, and the content folder copied with `fs.cp`;
 * 2. `importDataset` into a fresh embedded folder (and into PostgreSQL with `--postgres`, a database it creates and
 *    drops): rows/s beside one prepared INSERT per row in one transaction on a new SQLite file, and MB/s of content;
 * 3. the growth of the process's RSS during each phase (sampled every 20 ms): it must not follow the data's size.
 * Prints Markdown rows for bench/README.md and RATIO lines.
 */
import { randomBytes } from 'node:crypto'
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createWriteStream } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import postgres from 'postgres'
import { exportDataset, importDataset } from '../server/src/dataset/index.js'
import { openBackend, openSqliteBackend } from '../server/src/store/open-backend.js'
import { openDatabase } from '../server/src/store/sqlite/connect.js'
import { printRatio } from './report/index.js'

const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`)
  return at > 0 ? process.argv[at + 1]! : fallback
}
const ROWS = Number(arg('rows', '100000'))
const FILES = Number(arg('files', '40'))
const FILE_MB = Number(arg('file-mb', '1'))
const POSTGRES = arg('postgres', '')

const dir = await mkdtemp(join(tmpdir(), 'botshelf-bench-dataset-'))
const mb = (bytes: number): number => bytes / 1_000_000

/** Runs `fn`, returning its seconds and the largest RSS growth seen meanwhile. */
async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; seconds: number; rssGrowthMb: number; heapAfterMb: number }> {
  global.gc?.()
  const start = process.memoryUsage().rss
  let peak = start
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20)
  const began = performance.now()
  try {
    const value = await fn()
    const seconds = (performance.now() - began) / 1000
    const rssGrowthMb = mb(Math.max(peak, process.memoryUsage().rss) - start)
    global.gc?.()
    return { value, seconds, rssGrowthMb, heapAfterMb: mb(process.memoryUsage().heapUsed) }
  } finally {
    clearInterval(timer)
  }
}

// The source dataset.
const source = await openSqliteBackend({ dataDir: join(dir, 'source') })
const botId = (await source.auth.createBot({ name: 'bench' })).id
await source.auth.createToken({ botId, role: 'bot' })
await source.tables.createTable(botId, {
  name: 'eventsTable',
  schema: {
    type: 'object',
    properties: { name: { type: 'string' }, score: { type: 'number' }, done: { type: 'boolean' }, at: { type: 'string', format: 'date-time' }, extra: { type: 'object', additionalProperties: true } },
  },
})
for (let start = 0; start < ROWS; start += 10_000) {
  const rows = Array.from({ length: Math.min(10_000, ROWS - start) }, (_, i) => ({
    name: `user-${start + i}`, score: (start + i) % 997, done: i % 2 === 0, at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(), extra: { city: `city-${i % 50}` },
  }))
  await source.tables.importRows(botId, 'eventsTable', rows)
}
const chunk = randomBytes(1 << 20)
for (let i = 0; i < FILES; i++) {
  const size = Math.round(FILE_MB * (1 << 20))
  const { file } = await source.files.upsert({ botId, key: `f${i}.bin`, ownerScope: '', owner: { type: 'bot', id: botId }, size, contentType: 'application/octet-stream', tags: {}, metadata: {}, accessPolicies: [], index: false, expiresAt: null })
  const blob = await source.blobs.write((async function* () {
    for (let left = size; left > 0; left -= chunk.length) yield chunk.subarray(0, Math.min(chunk.length, left))
  })())
  await source.files.completeUpload(file.id, file.version, blob)
}
const physical = (await source.tables.loadTable(botId, 'eventsTable')).physical
await source.close()
const contentBytes = FILES * Math.round(FILE_MB * (1 << 20))

// Floors, same machine, same run.
const rawDump = await measured(async () => {
  const db = openDatabase(join(dir, 'source', 'botshelf.db'))
  const out = createWriteStream(join(dir, 'raw-dump.jsonl'))
  for (const row of db.prepare(`SELECT * FROM "${physical}" ORDER BY id`).iterate()) {
    if (!out.write(`${JSON.stringify(row)}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
  }
  await new Promise<void>((resolve) => out.end(() => resolve()))
  db.close()
})
const rawCopy = await measured(() => cp(join(dir, 'source', 'content'), join(dir, 'raw-content'), { recursive: true }))
const rawLoad = await measured(async () => {
  const from = openDatabase(join(dir, 'source', 'botshelf.db'))
  const rows = from.prepare(`SELECT * FROM "${physical}" ORDER BY id`).raw().all() as unknown[][]
  from.close()
  const to = openDatabase(join(dir, 'raw-load.db'))
  to.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, created_at TEXT, updated_at TEXT, c1 TEXT, c2 REAL, c3 INTEGER, c4 TEXT, c5 TEXT)`)
  const insert = to.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
  to.transaction(() => rows.forEach((row) => insert.run(...row.slice(0, 8))))()
  to.close()
})

const exportBackend = await openBackend({ dataDir: join(dir, 'source') })
const exported = await measured(() => exportDataset(exportBackend, join(dir, 'archive')))
await exportBackend.close()
const embeddedTarget = await openBackend({ dataDir: join(dir, 'target') })
const imported = await measured(() => importDataset(embeddedTarget, join(dir, 'archive')))
await embeddedTarget.close()

let pgImported: typeof imported | undefined
if (POSTGRES) {
  const admin = postgres(POSTGRES, { max: 1, onnotice: () => {} })
  const name = `botshelf_bench_${Date.now()}`
  await admin.unsafe(`CREATE DATABASE ${name}`)
  try {
    const url = POSTGRES.replace(/\/[^/]*$/, `/${name}`)
    const pg = await openBackend({ databaseUrl: url, dataDir: join(dir, 'pg-target') })
    pgImported = await measured(() => importDataset(pg, join(dir, 'archive')))
    await pg.close()
  } finally {
    await admin.unsafe(`DROP DATABASE ${name} WITH (FORCE)`)
    await admin.end()
  }
}

const rowRate = (seconds: number): number => Math.round(ROWS / seconds)
const contentRate = (seconds: number): number => Math.round(mb(contentBytes) / seconds)
const e = exported.value.seconds
const i = imported.value.seconds
console.log(`\nMachine: ${cpus().length} cores (${cpus()[0]?.model}), Node ${process.version}, load ${loadavg().map((n) => n.toFixed(1)).join(' ')}. ${ROWS} rows, ${FILES} files of ${FILE_MB} MB.\n`)
console.log('| measurement | botshelf | floor | ratio (botshelf / floor) | RSS growth (heap after, with --expose-gc) |')
console.log('|---|---:|---:|---:|---:|')
const memory = (m: { rssGrowthMb: number; heapAfterMb: number }): string => `${m.rssGrowthMb.toFixed(0)} MB (${m.heapAfterMb.toFixed(0)} MB)`
console.log(`| export: table rows/s (metadata phase, all parts) | ${rowRate(e.metadata)} | ${rowRate(rawDump.seconds)} (SELECT + JSON lines) | ${(rawDump.seconds / e.metadata).toFixed(2)} | ${memory(exported)} |`)
console.log(`| export: content MB/s (sha256 checked) | ${contentRate(e.content)} | ${contentRate(rawCopy.seconds)} (fs.cp) | ${(rawCopy.seconds / e.content).toFixed(2)} | |`)
console.log(`| import into SQLite: table rows/s (validated, one transaction) | ${rowRate(i.metadata)} | ${rowRate(rawLoad.seconds)} (prepared INSERT) | ${(rawLoad.seconds / i.metadata).toFixed(2)} | ${memory(imported)} |`)
console.log(`| import into SQLite: content MB/s (sha256 checked) | ${contentRate(i.content)} | ${contentRate(rawCopy.seconds)} (fs.cp) | ${(rawCopy.seconds / i.content).toFixed(2)} | |`)
console.log(`| import: verifying the parts (s) | ${i.verify.toFixed(2)} | | | |`)
if (pgImported) {
  const p = pgImported.value.seconds
  console.log(`| import into PostgreSQL: table rows/s | ${rowRate(p.metadata)} | ${rowRate(rawLoad.seconds)} (SQLite prepared INSERT) | ${(rawLoad.seconds / p.metadata).toFixed(2)} | ${memory(pgImported)} |`)
  console.log(`| import into PostgreSQL (content in the data folder): content MB/s | ${contentRate(p.content)} | ${contentRate(rawCopy.seconds)} (fs.cp) | ${(rawCopy.seconds / p.content).toFixed(2)} | |`)
}
printRatio({ bench: 'dataset', row: 'export table rows', botshelf: rowRate(e.metadata), baseline: rowRate(rawDump.seconds), unit: 'rows/s' })
printRatio({ bench: 'dataset', row: 'import table rows (SQLite)', botshelf: rowRate(i.metadata), baseline: rowRate(rawLoad.seconds), unit: 'rows/s' })
printRatio({ bench: 'dataset', row: 'export content', botshelf: contentRate(e.content), baseline: contentRate(rawCopy.seconds), unit: 'MB/s' })
await writeFile(join(dir, 'done'), '')
await rm(dir, { recursive: true, force: true })
