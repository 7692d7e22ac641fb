/**
 * The peer row: botshelf beside a second self-hosted service that installs from the npm registry and runs here,
 * Directus 11.3.5 on SQLite (decision 1476), on the same Files and Tables measures, the two services alternating
 * over the rounds. Kept out of `npm test`; run by
 *
 *   npm run bench:peer                                  # 3 rounds, 10,000 files, 100,000 rows
 *   npm run bench:peer -- --rounds 1 --files 2000 --rows 20000
 *
 * The first run installs Directus into bench/.peer/ (git-ignored; not a dependency of the project). botshelf runs
 * its built CLI (`npm run build` first). Both are driven by fetch from this process, each through its own HTTP API:
 * botshelf's wire (upsertFile then the content PUT, getFile then its URL, listFiles, findTableRows) and Directus's
 * REST API (multipart POST /files, GET /assets, GET /files, /items with filter, aggregate and groupBy).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { botshelfService } from './peer/botshelf.js'
import { directusService, installDirectus } from './peer/directus.js'
import type { PeerService } from './peer/service.js'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    files: { type: 'string', default: '10000' },
    rows: { type: 'string', default: '100000' },
  },
})
const rounds = Number(values.rounds)
const fileCount = Number(values.files)
const rowCount = Number(values.rows)

const KB4 = new Uint8Array(4096).fill(97)
const MB1 = new Uint8Array(1024 * 1024).fill(98)

type Measure = { label: string; unit: string; better: 'higher' | 'lower' }
const measures = {
  upload4k: { label: '4 KB uploads, one at a time', unit: 'files/s', better: 'higher' },
  download4k: { label: '4 KB downloads, one at a time', unit: 'files/s', better: 'higher' },
  upload1m: { label: '1 MB uploads', unit: 'MB/s', better: 'higher' },
  download1m: { label: '1 MB downloads', unit: 'MB/s', better: 'higher' },
  list: { label: `list 100 of ${fileCount.toLocaleString('en')} files, p50`, unit: 'ms', better: 'lower' },
  insert: { label: `insert ${rowCount.toLocaleString('en')} rows (1,000 per request)`, unit: 'rows/s', better: 'higher' },
  find: { label: 'filtered find (n = value, no index), p50', unit: 'ms', better: 'lower' },
  group: { label: 'group by a column and count, p50', unit: 'ms', better: 'lower' },
  count: { label: 'count all rows, p50', unit: 'ms', better: 'lower' },
  restart: { label: 'restart to first answer', unit: 'ms', better: 'lower' },
  idle: { label: 'idle memory after the restart (RSS)', unit: 'MB', better: 'lower' },
} satisfies Record<string, Measure>
type MeasureName = keyof typeof measures

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

async function timeEach(times: number, run: (i: number) => Promise<unknown>): Promise<number[]> {
  const took: number[] = []
  for (let i = 0; i < times; i++) {
    const started = performance.now()
    await run(i)
    took.push(performance.now() - started)
  }
  return took
}

async function inParallel(total: number, width: number, run: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < total) await run(next++)
    }),
  )
}

const rowsOf = (from: number, count: number) =>
  Array.from({ length: count }, (_, k) => ({ cat: `c${(from + k) % 10}`, n: (from + k) % 5000, name: `row ${from + k}` }))

async function prepare(service: PeerService): Promise<string[]> {
  await service.start()
  const ids: string[] = []
  const small = new Uint8Array(256).fill(99)
  await inParallel(fileCount, 8, async (i) => {
    ids[i] = await service.upload(`seed/${i}.txt`, small)
  })
  return ids
}

async function round(service: PeerService, r: number, out: Map<MeasureName, number[]>): Promise<void> {
  const record = (name: MeasureName, value: number): void => {
    out.set(name, [...(out.get(name) ?? []), value])
  }
  const ids: string[] = []
  const up = await timeEach(200, async (i) => (ids[i] = await service.upload(`r${r}/small-${i}.txt`, KB4)))
  record('upload4k', 200 / (up.reduce((a, b) => a + b) / 1000))
  const down = await timeEach(500, async (i) => service.download(ids[i % ids.length]!))
  record('download4k', 500 / (down.reduce((a, b) => a + b) / 1000))
  const bigIds: string[] = []
  const bigUp = await timeEach(20, async (i) => (bigIds[i] = await service.upload(`r${r}/big-${i}.bin`, MB1)))
  record('upload1m', 20 / (bigUp.reduce((a, b) => a + b) / 1000))
  const bigDown = await timeEach(20, async (i) => {
    if ((await service.download(bigIds[i]!)) !== MB1.byteLength) throw new Error('1 MB download: wrong length')
  })
  record('download1m', 20 / (bigDown.reduce((a, b) => a + b) / 1000))
  record('list', median(await timeEach(200, async () => {
    if ((await service.listFirst100()) !== 100) throw new Error('list: not 100 files')
  })))

  const table = `peerRowsR${r}Table`
  await service.createTable(table)
  const insertStarted = performance.now()
  for (let from = 0; from < rowCount; from += 1000) await service.insertRows(table, rowsOf(from, Math.min(1000, rowCount - from)))
  record('insert', rowCount / ((performance.now() - insertStarted) / 1000))
  record('find', median(await timeEach(100, async (i) => service.findByN(table, (i * 37) % 5000))))
  record('group', median(await timeEach(30, async () => {
    if ((await service.countByCat(table)) !== 10) throw new Error('group: not 10 groups')
  })))
  record('count', median(await timeEach(30, async () => {
    const counted = await service.countAll(table)
    if (counted !== rowCount) throw new Error(`count: ${counted}, expected ${rowCount}`)
  })))

  await service.stop()
  const restarted = performance.now()
  await service.start()
  await service.firstAnswer()
  record('restart', performance.now() - restarted)
  await new Promise((resolve) => setTimeout(resolve, 3000))
  record('idle', service.rss() / 1e6)
}

const folder = await mkdtemp(join(os.tmpdir(), 'botshelf-peer-bench-'))
const log = (line: string): void => void process.stderr.write(line)
const services: PeerService[] = [botshelfService({ dataDir: join(folder, 'botshelf') }), directusService({ dataDir: join(folder, 'directus') })]
try {
  installDirectus(log)
  const results = new Map<PeerService, Map<MeasureName, number[]>>(services.map((service) => [service, new Map()]))
  for (const service of services) {
    const started = performance.now()
    await prepare(service)
    log(`${service.name}: started and ${fileCount} files uploaded in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
  }
  for (let r = 1; r <= rounds; r++) {
    const order = r % 2 === 1 ? services : [...services].reverse()
    for (const service of order) {
      const started = performance.now()
      await round(service, r, results.get(service)!)
      log(`round ${r}: ${service.name} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
    }
  }
  const [ours, peer] = services as [PeerService, PeerService]
  const lines = [
    `Peer row: ${rounds} round(s), ${fileCount} files, ${rowCount} rows; node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}, ${new Date().toISOString()}`,
    '',
    `| measure | unit | ${ours.name} | ${peer.name} | botshelf ahead by |`,
    '|---|---|---:|---:|---:|',
  ]
  for (const [name, measure] of Object.entries(measures) as Array<[MeasureName, Measure]>) {
    const a = median(results.get(ours)!.get(name) ?? [Number.NaN])
    const b = median(results.get(peer)!.get(name) ?? [Number.NaN])
    const ahead = measure.better === 'higher' ? a / b : b / a
    const digits = (x: number): string => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2))
    lines.push(`| ${measure.label} | ${measure.unit} | ${digits(a)} | ${digits(b)} | ${ahead.toFixed(2)}× |`)
  }
  lines.push('', '(medians over the rounds; "ahead by" > 1 means botshelf is better on that row)')
  process.stdout.write(`${lines.join('\n')}\n`)
} finally {
  for (const service of services) await service.stop().catch(() => {})
  await rm(folder, { recursive: true, force: true })
}
