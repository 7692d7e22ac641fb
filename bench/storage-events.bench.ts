/**
 * Storage events under a write-heavy load: `npx tsx bench/storage-events.bench.ts [--seconds 1] [--rounds 5]`
 * (`npm run bench:storage-events`).
 *
 * Two apps in this process, each on its own file-backed SQLite data folder (real fsyncs), each with one table:
 * one bot has a subscription to every storage event (a local HTTP receiver answering 204), the other has none.
 * `createTableRows` (one row a request) is sent one after another for a fixed time; rounds alternate which app
 * goes first. Prints rows inserted per second of each and the ratio of the medians (the outbox's cost on the write
 * path), then the events delivered per second: the deliveries of the subscribed app's writes, from the first
 * write of the run to the last delivery received.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createApp, type BotshelfApp } from '../server/src/http/app.js'
import { silentLogger } from '../server/src/http/logger.js'

const argValue = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(name)
  return index > 0 ? Number(process.argv[index + 1]) : fallback
}
const SECONDS = argValue('--seconds', 1)
const ROUNDS = argValue('--rounds', 5)

let received = 0
const receiver = createServer((req, res) => {
  req.resume()
  req.on('end', () => {
    received++
    res.writeHead(204).end()
  })
})
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`

interface Target {
  name: string
  app: BotshelfApp
  dir: string
  write: () => Request
}

async function target(name: string, subscribe: boolean): Promise<Target> {
  const dir = await mkdtemp(join(tmpdir(), 'botshelf-bench-events-'))
  const app = await createApp({ dataDir: dir, logger: silentLogger, rateLimit: false, webhooks: { pollMs: 100 } })
  const bot = await app.admin.createBot()
  const { token } = await app.admin.createToken({ botId: bot.id, role: 'bot' })
  const headers = { authorization: `Bearer ${token}`, 'x-bot-id': bot.id, 'content-type': 'application/json' }
  const call = async (method: string, path: string, body: unknown) => {
    const res = await app.fetch(new Request(`http://bench${path}`, { method, headers, body: JSON.stringify(body) }))
    if (res.status !== 200) throw new Error(`${name}: ${method} ${path} answered ${res.status} ${await res.text()}`)
  }
  await call('POST', '/v1/tables', { name: 'benchTable', schema: { type: 'object', properties: { n: { type: 'number' } } } })
  if (subscribe) await call('POST', '/v1/webhooks', { url: receiverUrl })
  let n = 0
  return { name, app, dir, write: () => new Request('http://bench/v1/tables/benchTable/rows', { method: 'POST', headers, body: JSON.stringify({ rows: [{ n: n++ }] }) }) }
}

async function measure(subject: Target): Promise<{ perSecond: number; writes: number }> {
  const deadline = performance.now() + SECONDS * 1000
  const started = performance.now()
  let writes = 0
  while (performance.now() < deadline) {
    const res = await subject.app.fetch(subject.write())
    if (res.status !== 200) throw new Error(`${subject.name}: createTableRows answered ${res.status}`)
    await res.arrayBuffer()
    writes++
  }
  return { perSecond: writes / ((performance.now() - started) / 1000), writes }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const without = await target('no subscription', false)
const withSub = await target('one subscription', true)
const rates: Record<string, number[]> = { [without.name]: [], [withSub.name]: [] }
let subscribedWrites = 0
const runStarted = performance.now()
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? [without, withSub] : [withSub, without]
  const line: string[] = []
  for (const subject of order) {
    const { perSecond, writes } = await measure(subject)
    if (subject === withSub) subscribedWrites += writes
    rates[subject.name]!.push(perSecond)
    line.push(`${subject.name} ${perSecond.toFixed(0)}/s`)
  }
  console.log(`round ${round + 1}: ${line.join(', ')}`)
}
// Every write of the subscribed bot is one table.rows.created delivery (one row each).
while (received < subscribedWrites) await new Promise((resolve) => setTimeout(resolve, 5))
const deliveredIn = (performance.now() - runStarted) / 1000
const a = median(rates[without.name]!)
const b = median(rates[withSub.name]!)
console.log(`\nmachine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}, ${new Date().toISOString().slice(0, 10)}`)
console.log(`rows inserted per second, no subscription:  ${a.toFixed(0)}`)
console.log(`rows inserted per second, one subscription: ${b.toFixed(0)}`)
console.log(`ratio (with / without): ${(b / a).toFixed(3)}`)
console.log(`events delivered: ${received} in ${deliveredIn.toFixed(2)} s of run = ${(received / deliveredIn).toFixed(0)} per second (delivery keeps up with writes when this is close to the write rate × its share of the run)`)
for (const subject of [without, withSub]) {
  await subject.app.close()
  await rm(subject.dir, { recursive: true, force: true })
}
receiver.close()
