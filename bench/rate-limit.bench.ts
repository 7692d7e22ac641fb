/**
 * The throughput cost of rate limiting: `npx tsx bench/rate-limit.bench.ts [--seconds 1] [--rounds 11]`
 * (`npm run bench:rate-limit`).
 *
 * Two apps in this process, each on its own in-memory backend with the same file: one with rate limiting on
 * (the default token bucket, per token, with limits no bench reaches so every request is counted and allowed),
 * one with `rateLimit: false`. `getFile` is called through `app.fetch` one request after another for a fixed
 * time, once with an address given (so the per-IP tier runs its path check too); rounds alternate which app
 * goes first. Prints each round, the median requests per second of each app, the ratio of the medians, and the
 * median of the per-round ratios (each pair ran back to back, so it is the figure least moved by other load).
 */
import { performance } from 'node:perf_hooks'
import { cpus } from 'node:os'
import { createApp, type BotshelfApp } from '../server/src/http/app.js'
import { silentLogger } from '../server/src/http/logger.js'

const argValue = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(name)
  return index > 0 ? Number(process.argv[index + 1]) : fallback
}
const SECONDS = argValue('--seconds', 1)
const ROUNDS = argValue('--rounds', 11)

interface Target {
  name: string
  app: BotshelfApp
  request: () => Request
}

async function target(name: string, rateLimit: false | undefined): Promise<Target> {
  const app = await createApp({
    memory: true,
    logger: silentLogger,
    // "on": the real middlewares and store, with limits far above what one process can send.
    rateLimit: rateLimit ?? { token: { perSecond: 1_000_000, burst: 100_000_000 }, ip: { perSecond: 1_000_000, burst: 100_000_000 } },
  })
  const bot = await app.admin.createBot()
  const { token } = await app.admin.createToken({ botId: bot.id, role: 'bot' })
  const headers = { authorization: `Bearer ${token}`, 'x-bot-id': bot.id, 'content-type': 'application/json' }
  const created = await app.fetch(new Request('http://bench/v1/files', { method: 'PUT', headers, body: JSON.stringify({ key: 'small.txt', size: 5 }) }))
  const { file } = (await created.json()) as { file: { id: string; uploadUrl: string } }
  await app.fetch(new Request(file.uploadUrl, { method: 'PUT', body: 'hello' }))
  return { name, app, request: () => new Request(`http://bench/v1/files/${file.id}`, { headers }) }
}

async function measure(subject: Target): Promise<number> {
  const deadline = performance.now() + SECONDS * 1000
  const started = performance.now()
  let done = 0
  while (performance.now() < deadline) {
    const res = await subject.app.fetch(subject.request(), { remoteAddress: '127.0.0.1' })
    if (res.status !== 200) throw new Error(`${subject.name}: getFile answered ${res.status}`)
    await res.arrayBuffer()
    done++
  }
  return done / ((performance.now() - started) / 1000)
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const on = await target('on', undefined)
const off = await target('off', false)
// Warm both paths up (JIT, statement caches) before timing.
for (const subject of [on, off]) for (let i = 0; i < 2_000; i++) await (await subject.app.fetch(subject.request(), { remoteAddress: '127.0.0.1' })).arrayBuffer()

const rates: Record<string, number[]> = { on: [], off: [] }
const pairRatios: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? [on, off] : [off, on]
  const line: string[] = []
  for (const subject of order) {
    const rate = await measure(subject)
    rates[subject.name]!.push(rate)
    line.push(`${subject.name} ${Math.round(rate).toLocaleString('en-US')} req/s`)
  }
  pairRatios.push(rates.on![round]! / rates.off![round]!)
  console.log(`round ${round + 1}: ${line.join(', ')} (on / off ${pairRatios[round]!.toFixed(3)})`)
}

const onRate = median(rates.on!)
const offRate = median(rates.off!)
console.log('')
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; ${SECONDS} s × ${ROUNDS} rounds, median`)
console.log('| getFile in process (app.fetch) | requests/s |')
console.log('|---|---:|')
console.log(`| rate limiting on | ${Math.round(onRate).toLocaleString('en-US')} |`)
console.log(`| rate limiting off | ${Math.round(offRate).toLocaleString('en-US')} |`)
console.log(`| ratio of the medians, on / off | ${(onRate / offRate).toFixed(3)} |`)
console.log(`| median of the per-round ratios, on / off | ${median(pairRatios).toFixed(3)} |`)
console.log(`cost per request: ${((1 / onRate - 1 / offRate) * 1e6).toFixed(1)} µs (from the medians)`)
await on.app.close()
await off.app.close()
