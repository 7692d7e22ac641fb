/**
 * Idle memory and restart time of `botshelf serve` (issue 29, decisions 1475 and 1480), against a same-run baseline:
 *
 *   npm run bench:startup                                   # 10,000 files + a 1,000,000-row table
 *   npm run bench:startup -- --baseline /path/to/checkout   # also the built CLI of another checkout, alternating
 *   npm run bench:startup -- --files 1000 --rows 100000     # smaller data folder
 *
 * Measures, on the built CLI (`npm run build` first): the RSS of an idle server 3 s after its first answer, and
 * settled (60 s after it, once V8's memory reducer has given back the young generation grown by the start,
 * decision 1480), on an empty data folder and on a loaded one; the time from spawning `botshelf serve` on the
 * loaded folder to its first answered request (3 restarts, alternating with the baseline checkout when given); and
 * what the first request that needs each lazily loaded part pays, once: the first search (the offline word
 * vectors), the first console page, the first find on the big table, the first `$regex` filter (the RE2 engine, on
 * the first 1,000 ids: a `$regex` over all rows passes its work budget), each against the same request repeated
 * (time and RSS after). The floor is a bare `node:http` server in the same run: what Node itself holds here.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { botshelfService } from './peer/botshelf.js'
import { expectOk, freePort, rssOfPid, until } from './peer/service.js'

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '10000' },
    rows: { type: 'string', default: '1000000' },
    restarts: { type: 'string', default: '3' },
    baseline: { type: 'string' },
  },
})
const fileCount = Number(values.files)
const rowCount = Number(values.rows)
const restarts = Number(values.restarts)
const SETTLE_MS = 3000
// V8's memory reducer shrinks the young generation 25-60 s after the start (decision 1480).
const SETTLED_MS = 60_000
const log = (line: string): void => void process.stderr.write(line)
const mb = (bytes: number): string => (bytes / 1e6).toFixed(1)
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, SETTLE_MS))

/** A bare node:http server answering 200: the floor of an idle Node.js server's RSS on this machine. */
async function floorRss(): Promise<number> {
  const port = await freePort()
  const child = spawn(process.execPath, ['-e', `require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')`], { stdio: 'ignore' })
  try {
    await until(async () => {
      const answer = await fetch(`http://127.0.0.1:${port}/`)
      if (!answer.ok) throw new Error(`floor: HTTP ${answer.status}`)
      await answer.text()
    }, 30_000)
    await settle()
    return rssOfPid(child.pid!)
  } finally {
    child.kill('SIGTERM')
  }
}

async function timed<T>(run: () => Promise<T>): Promise<number> {
  const started = performance.now()
  await run()
  return performance.now() - started
}

const folder = await mkdtemp(join(os.tmpdir(), 'botshelf-startup-bench-'))
const lines: string[] = []
/** A row of the result, also printed at once on stderr (a failure later keeps what was measured). */
const record = (line: string): void => {
  lines.push(line)
  log(`${line}\n`)
}
try {
  const checkouts = [{ name: 'this checkout', checkout: undefined as string | undefined }, ...(values.baseline ? [{ name: `baseline (${values.baseline})`, checkout: values.baseline }] : [])]

  // Empty data folders: a first start each, then a restart, idle.
  const floor = await floorRss()
  record(`| bare node:http server (the floor) | ${mb(floor)} MB |`)
  for (const [index, { name, checkout }] of checkouts.entries()) {
    const service = botshelfService({ dataDir: join(folder, `empty-${index}`), ...(checkout ? { checkout } : {}) })
    await service.start()
    await service.stop()
    await service.start()
    await service.firstAnswer()
    await settle()
    record(`| ${name}: idle, empty data folder, 3 s after the first answer | ${mb(service.rss())} MB |`)
    await new Promise((resolve) => setTimeout(resolve, SETTLED_MS - SETTLE_MS))
    record(`| ${name}: idle, empty data folder, settled (60 s) | ${mb(service.rss())} MB |`)
    await service.stop()
  }

  // The loaded data folder, made by this checkout through the API.
  const loadedDir = join(folder, 'loaded')
  const maker = botshelfService({ dataDir: loadedDir })
  await maker.start()
  const madeAt = performance.now()
  const small = new Uint8Array(256).fill(99)
  let next = 0
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < fileCount) {
      const i = next++
      await maker.upload(`seed/${i}.txt`, small)
    }
  }))
  await maker.createTable('bigTable')
  for (let from = 0; from < rowCount; from += 1000) {
    await maker.insertRows('bigTable', Array.from({ length: Math.min(1000, rowCount - from) }, (_, k) => ({ cat: `c${(from + k) % 10}`, n: (from + k) % 5000, name: `row ${from + k}` })))
  }
  // One indexed file, so the first search after a restart has passages to rank (and a query to embed).
  const auth = maker.auth()
  const upsert = (await expectOk(await fetch(`${maker.url()}/v1/files`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ key: 'guide.md', size: 160, index: true, contentType: 'text/markdown' }) }), 'upsert')) as { file: { id: string; uploadUrl: string } }
  await expectOk(await fetch(upsert.file.uploadUrl, { method: 'PUT', body: '# Refunds\n\nRefunds are issued within 14 days of the purchase. Write to the support desk with your order number to get your money back quickly.'.padEnd(160, ' ') }), 'content')
  await until(async () => {
    const { file } = (await expectOk(await fetch(`${maker.url()}/v1/files/${upsert.file.id}`, { headers: auth }), 'getFile')) as { file: { status: string } }
    if (file.status !== 'indexing_completed') throw new Error(file.status)
  }, 120_000)
  log(`loaded data folder: ${fileCount} files and ${rowCount} rows in ${((performance.now() - madeAt) / 1000).toFixed(1)} s\n`)
  await maker.stop()

  // Restarts on the loaded folder, alternating checkouts.
  const restartMs = new Map<string, number[]>()
  const idle = new Map<string, number[]>()
  const settled = new Map<string, number[]>()
  for (let r = 0; r < restarts; r++) {
    for (const { name, checkout } of r % 2 === 0 ? checkouts : [...checkouts].reverse()) {
      const service = botshelfService({ dataDir: loadedDir, credentials: maker.credentials(), ...(checkout ? { checkout } : {}) })
      const took = await timed(async () => {
        await service.start()
        await until(() => service.firstAnswer(), 60_000)
      })
      restartMs.set(name, [...(restartMs.get(name) ?? []), took])
      await settle()
      idle.set(name, [...(idle.get(name) ?? []), service.rss()])
      // The settled figure once per checkout (the first round): it costs 60 s a restart.
      if (r === 0) {
        await new Promise((resolve) => setTimeout(resolve, SETTLED_MS - SETTLE_MS))
        settled.set(name, [service.rss()])
      }
      await service.stop()
    }
  }
  for (const { name } of checkouts) {
    record(`| ${name}: idle, ${fileCount} files + ${rowCount} rows, 3 s after the first answer (restarts: ${idle.get(name)!.map(mb).join(', ')}) | ${mb(Math.min(...idle.get(name)!))} MB |`)
    record(`| ${name}: idle, ${fileCount} files + ${rowCount} rows, settled (60 s) | ${mb(settled.get(name)![0]!)} MB |`)
    record(`| ${name}: restart to first answer, ${fileCount} files + ${rowCount} rows (${restartMs.get(name)!.map((x) => x.toFixed(0)).join(', ')} ms) | ${Math.min(...restartMs.get(name)!).toFixed(0)} ms |`)
  }

  // What the first request needing each lazy part pays, once, after a restart of this checkout.
  const service = botshelfService({ dataDir: loadedDir, credentials: maker.credentials() })
  await service.start()
  await until(() => service.firstAnswer(), 60_000)
  await settle()
  const before = service.rss()
  const firstUses: Array<[string, () => Promise<unknown>]> = [
    ['find on the big table (n = value)', () => service.findByN('bigTable', 17)],
    ['count all rows of the big table', () => service.countAll('bigTable')],
    ['$regex filter on the big table (loads the RE2 engine)', async () =>
      expectOk(await fetch(`${service.url()}/v1/tables/bigTable/rows/find`, { method: 'POST', headers: { ...service.auth(), 'content-type': 'application/json' }, body: JSON.stringify({ filter: { id: { $lte: 1000 }, name: { $regex: '^row 12[0-9]$' } }, limit: 10 }) }), 'findTableRows $regex')],
    ['search (loads the offline word vectors)', async () => expectOk(await fetch(`${service.url()}/v1/files/search?query=${encodeURIComponent('how do I get my money back')}`, { headers: service.auth() }), 'search')],
    ['console page and its script', async () => {
      const page = await fetch(`${service.url()}/console/`)
      const html = await page.text()
      const script = /src="([^"]+\.js)"/.exec(html)?.[1]
      if (script) await (await fetch(new URL(script, `${service.url()}/console/`))).arrayBuffer()
    }],
  ]
  record(`| this checkout: idle after the restart, before the requests below | ${mb(before)} MB |`)
  for (const [label, run] of firstUses) {
    const first = await timed(run)
    const again = await timed(run)
    record(`| first ${label}: ${first.toFixed(1)} ms, then ${again.toFixed(1)} ms | RSS after ${mb(service.rss())} MB |`)
  }
  await service.stop()
  process.stdout.write(`Startup and idle memory: ${fileCount} files + ${rowCount} rows; node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}, ${new Date().toISOString()}\n\n| measure | value |\n|---|---:|\n${lines.join('\n')}\n`)
} finally {
  await rm(folder, { recursive: true, force: true })
}
