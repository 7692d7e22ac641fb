/**
 * Web console benchmark: the bundle's size (raw and gzip) and the time to first render of the files list when the
 * bot has 10 000 files, beside a baseline measured in the same run: a bare HTML page listing the same 10 000 names
 * (no script), served by plain node:http.
 *
 *   npm run bench:console                       # 10 000 files, 5 rounds
 *   npx tsx bench/console.bench.ts --files 2000 --rounds 3
 *
 * "First render" is read inside the page: an init script checks on every animation frame whether the list is in
 * the DOM (console: the first row of the files table; baseline: all the <li>) and records performance.now() of
 * that frame, so both sides are timed from the navigation start by the same clock. Each round uses a fresh browser
 * context (cold cache) and alternates which side goes first; the figures are medians.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { buildConsole } from '../server/scripts/build-console.mjs'
import { createServer } from '../server/src/http/server.js'
import { ownerFor } from '../server/src/files/permissions.js'
import { silentLogger } from '../server/src/http/logger.js'
import { launchChromium } from '../test/console/browser.test-support.js'

const { values } = parseArgs({ options: { files: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '5' } } })
const fileCount = Number(values.files)
const rounds = Number(values.rounds)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

const outdir = await mkdtemp(join(os.tmpdir(), 'botshelf-console-bench-'))
const built = await buildConsole({ outdir })
const script = await readFile(join(outdir, 'assets', built.script))
const stylesheet = await readFile(join(outdir, 'assets', built.stylesheet))
const html = await readFile(join(outdir, 'index.html'))
const sizes = [
  { asset: `script (${built.script})`, raw: script.length, gzip: gzipSync(script, { level: 9 }).length },
  { asset: `stylesheet (${built.stylesheet})`, raw: stylesheet.length, gzip: gzipSync(stylesheet, { level: 9 }).length },
  { asset: 'index.html', raw: html.length, gzip: gzipSync(html, { level: 9 }).length },
]

const server = await createServer({ memory: true, port: 0, host: '127.0.0.1', logger: silentLogger, rateLimit: false, consoleDir: outdir })
const boot = await server.app.admin.bootstrap()
const { owner, scope } = ownerFor({ kind: 'bot', botId: boot.bot.id, tokenId: boot.token!.id })
const names: string[] = []
const seedStart = performance.now()
for (let i = 0; i < fileCount; i += 1) {
  const key = `docs/${String(i).padStart(5, '0')}-report.txt`
  names.push(key)
  await server.app.services.backend.files.upsert({
    botId: boot.bot.id,
    key,
    ownerScope: scope,
    owner,
    size: 1000 + i,
    contentType: 'text/plain',
    tags: { batch: String(i % 10) },
    metadata: {},
    accessPolicies: [],
    index: false,
    expiresAt: null,
  })
}
const seedMs = performance.now() - seedStart

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;')
const baselineHtml = `<!doctype html><html><head><meta charset="utf-8"><title>files</title></head><body><h1>Files</h1><ul>${names
  .map((name) => `<li>${escape(name)}</li>`)
  .join('')}</ul></body></html>`
const baseline = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
  res.end(baselineHtml)
})
await new Promise<void>((resolve) => baseline.listen(0, '127.0.0.1', resolve))
const baselineUrl = `http://127.0.0.1:${(baseline.address() as AddressInfo).port}/`

const browser = await launchChromium()
const frameWatcher = (condition: string) => `
  (() => {
    const check = () => {
      if (${condition}) { window.__firstRenderMs = performance.now(); return }
      requestAnimationFrame(check)
    }
    requestAnimationFrame(check)
  })()`

async function timeConsole(): Promise<number> {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.addInitScript(
    ({ token, botId }) => sessionStorage.setItem('botshelf.console.session', JSON.stringify({ token, botId })),
    { token: boot.token!.token, botId: boot.bot.id },
  )
  await page.addInitScript(frameWatcher("document.querySelector('table.grid tbody tr') !== null"))
  await page.goto(`${server.url}/console/`)
  const ms = (await page.waitForFunction(() => (window as unknown as { __firstRenderMs?: number }).__firstRenderMs, undefined, { timeout: 60_000 })).jsonValue()
  const rows = await page.locator('table.grid tbody tr').count()
  if (rows !== 50) throw new Error(`expected the first page of 50 files, saw ${rows}`)
  await context.close()
  return (await ms) as number
}

async function timeBaseline(): Promise<number> {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.addInitScript(frameWatcher(`document.querySelectorAll('li').length === ${fileCount}`))
  await page.goto(baselineUrl)
  const ms = await (await page.waitForFunction(() => (window as unknown as { __firstRenderMs?: number }).__firstRenderMs, undefined, { timeout: 60_000 })).jsonValue()
  await context.close()
  return ms as number
}

const consoleMs: number[] = []
const baselineMs: number[] = []
const ratios: number[] = []
for (let round = 0; round < rounds; round += 1) {
  let c: number
  let b: number
  if (round % 2 === 0) {
    c = await timeConsole()
    b = await timeBaseline()
  } else {
    b = await timeBaseline()
    c = await timeConsole()
  }
  consoleMs.push(c)
  baselineMs.push(b)
  ratios.push(c / b)
}

await browser.close()
await new Promise((resolve) => baseline.close(resolve))
await server.close()
await rm(outdir, { recursive: true, force: true })

console.log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model}), Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`)
console.log(`\nbundle (minified):\n| asset | raw | gzip -9 |\n|---|---:|---:|`)
for (const size of sizes) console.log(`| ${size.asset} | ${kb(size.raw)} | ${kb(size.gzip)} |`)
console.log(`| total | ${kb(sizes.reduce((s, x) => s + x.raw, 0))} | ${kb(sizes.reduce((s, x) => s + x.gzip, 0))} |`)
console.log(`\nfiles seeded: ${fileCount} in ${(seedMs / 1000).toFixed(1)} s (through the files port)`)
console.log(`\ntime to first render, ${rounds} rounds, median (all rounds):`)
console.log(`| page | median ms | rounds ms |\n|---|---:|---|`)
console.log(`| console: files list, first page of 50 of ${fileCount} files | ${median(consoleMs).toFixed(0)} | ${consoleMs.map((x) => x.toFixed(0)).join(', ')} |`)
console.log(`| baseline: bare HTML listing all ${fileCount} names | ${median(baselineMs).toFixed(0)} | ${baselineMs.map((x) => x.toFixed(0)).join(', ')} |`)
console.log(`| ratio console / baseline (median of per-round ratios) | ${median(ratios).toFixed(2)} | ${ratios.map((x) => x.toFixed(2)).join(', ')} |`)
