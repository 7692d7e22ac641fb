/**
 * What the start's content sweep costs the database (decision 1487): the sweep asks which blobs some file still
 * references. It used to ask once per blob; it now asks once per batch (a page of an S3 listing, 256 names of a
 * folder). This bench loads `--files` file rows by bulk SQL into the files port's own table, then times both ways of
 * asking about every blob, in the same run, alternating: one question per blob (the way before; since the port's
 * `blobInUse` was folded into it, `blobsInUse` with one id) and one `blobsInUse` per batch of `--batch` ids (the way
 * now). Both answer the same set, which the bench checks.
 *
 * Run:
 *   npm run bench:sweep -- --engine sqlite --files 100000
 *   npm run bench:sweep -- --engine postgres --files 100000 --batch 1000
 *
 * PostgreSQL needs the test server of scripts/test-services.sh (a fresh database is made and dropped). Prints a
 * Markdown table for bench/README.md and a `RATIO` line for `npm run bench` (the baseline: asking once per blob).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { openSqliteBackend } from '../server/src/store/sqlite/backend.js'
import { openPostgresBackend } from '../server/src/store/postgres/backend.js'
import { createTestDatabase } from '../server/src/store/postgres/test-database.test-support.js'
import type { Backend } from '../server/src/store/index.js'
import { loadSqliteFiles } from './growth/load-sqlite.js'
import { loadPostgresFiles } from './growth/load-postgres.js'
import { printRatio } from './report/index.js'

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'sqlite' },
    files: { type: 'string', default: '100000' },
    batch: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '3' },
  },
})
const engine = values.engine
if (engine !== 'sqlite' && engine !== 'postgres') throw new Error(`--engine: expected sqlite or postgres, received ${engine}`)
const fileCount = Number(values.files)
const batchSize = Number(values.batch)
const rounds = Number(values.rounds)
for (const [name, value] of [['files', fileCount], ['batch', batchSize], ['rounds', rounds]] as const) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name}: expected a whole number from 1, received ${String(values[name])}`)
}

const BOT = 'bot_sweep_bench'
// Every tenth id names no file: the sweep's question must tell them apart.
const ids = Array.from({ length: fileCount }, (_, n) => (n % 10 === 9 ? `blob_orphan${n}` : `blob_growth${n}`))

async function perBlob(backend: Backend): Promise<Set<string>> {
  const kept = new Set<string>()
  for (const id of ids) if ((await backend.files.blobsInUse([id])).has(id)) kept.add(id)
  return kept
}

async function perBatch(backend: Backend): Promise<Set<string>> {
  const kept = new Set<string>()
  for (let from = 0; from < ids.length; from += batchSize) {
    for (const id of await backend.files.blobsInUse(ids.slice(from, from + batchSize))) kept.add(id)
  }
  return kept
}

const folder = mkdtempSync(join(tmpdir(), 'botshelf-sweep-bench-'))
const database = engine === 'postgres' ? await createTestDatabase() : undefined
try {
  const loaded = engine === 'sqlite' ? await loadSqliteFiles(folder, BOT, fileCount) : await loadPostgresFiles(database!.url, BOT, fileCount)
  const backend = engine === 'sqlite' ? await openSqliteBackend({ dataDir: folder }) : await openPostgresBackend({ url: database!.url, dataDir: folder })
  try {
    const times = { perBlob: [] as number[], perBatch: [] as number[] }
    for (let round = 0; round < rounds; round++) {
      for (const [name, ask] of round % 2 === 0 ? ([['perBlob', perBlob], ['perBatch', perBatch]] as const) : ([['perBatch', perBatch], ['perBlob', perBlob]] as const)) {
        const started = performance.now()
        const kept = await ask(backend)
        times[name].push(performance.now() - started)
        const expected = fileCount - Math.floor(fileCount / 10)
        if (kept.size !== expected) throw new Error(`${name} kept ${kept.size} blobs, expected ${expected}`)
      }
    }
    const median = (list: number[]): number => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!
    const line = (label: string, list: number[]): string => `| ${label} | ${list.map((t) => t.toFixed(0)).join(', ')} | ${median(list).toFixed(0)} |`
    console.log(`\nsweep questions, ${engine}, ${fileCount.toLocaleString('en')} files (loaded in ${loaded.seconds.toFixed(1)} s), ${cpus().length} cores, ${cpus()[0]?.model ?? ''}, Node ${process.version}, load ${loadavg()[0]!.toFixed(1)}\n`)
    console.log('| asking about every blob | ms per round | median ms |\n|---|---:|---:|')
    console.log(line('one question per blob (before)', times.perBlob))
    console.log(line(`one \`blobsInUse\` per ${batchSize} blobs (now)`, times.perBatch))
    console.log(`\ntime now / before (medians): ${(median(times.perBatch) / median(times.perBlob)).toFixed(3)}`)
    const rate = (ms: number): number => fileCount / (ms / 1000)
    printRatio({ bench: 'sweep-questions', row: `blobs asked about by the start's sweep (${engine})`, botshelf: rate(median(times.perBatch)), baseline: rate(median(times.perBlob)), unit: 'blobs/s' })
  } finally {
    await backend.close()
  }
} finally {
  await database?.drop()
  rmSync(folder, { recursive: true, force: true })
}
