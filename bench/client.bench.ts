/**
 * Client benchmark: `npx tsx bench/client.bench.ts [--seconds 3] [--rounds 3]`.
 *
 * Calls per second of a small `getFile` and of a `findTableRows` (indexed equality filter, 20 rows of a
 * 1000-row table), with botshelf's client beside `@botpress/client` (the baseline) against the same
 * botshelf server on a real port, in the same run, sequentially (one call in flight) and with 8 calls in flight.
 * In each round the clients take turns in 250 ms slices (rotating order) until each has run `--seconds`; the
 * median round is kept. botshelf's client over `fetch` (`fetch: globalThis.fetch`, the transport browsers use;
 * under Node the default is node:http, decision 1203) and in process (`fetch: app.fetch`, no socket) are shown for
 * reference. Prints a Markdown table for bench/README.md and one `RATIO` line per row for `npm run bench`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Client } from '../src/client/index.js'
import { printRatio } from './report/index.js'
import { createServer, silentLogger } from '../server/src/index.js'
import { filesFeature } from '../server/src/files/feature.js'
import { tablesFeature } from '../server/src/tables/feature.js'

const argValue = (name: string, fallback: number) => {
  const index = process.argv.indexOf(name)
  return index > 0 ? Number(process.argv[index + 1]) : fallback
}
const SECONDS = argValue('--seconds', 3)
const ROUNDS = argValue('--rounds', 3)
const CONCURRENCY = 8

type AnyClient = Pick<Client, 'getFile' | 'findTableRows'>
type Call = (client: AnyClient) => Promise<unknown>

const dir = mkdtempSync(join(tmpdir(), 'botshelf-bench-client-'))
// Rate limits off: the bench measures the clients, not the limiter (its cost is in bench/rate-limit.bench.ts).
const server = await createServer({ dataDir: dir, port: 0, logger: silentLogger, features: [filesFeature, tablesFeature], rateLimit: false })
const bot = await server.app.admin.createBot({ name: 'bench' })
const { token } = await server.app.admin.createToken({ botId: bot.id, role: 'bot' })

const official = createRequire(import.meta.url)('@botpress/client') as typeof import('@botpress/client')
const clients: Record<string, AnyClient> = {
  '@botpress/client (HTTP)': new official.Client({ apiUrl: server.url, token, botId: bot.id }) as unknown as AnyClient,
  'botshelf client (HTTP)': new Client({ apiUrl: server.url, token, botId: bot.id }),
  'botshelf client (HTTP, fetch)': new Client({ apiUrl: server.url, token, botId: bot.id, fetch: (request) => globalThis.fetch(request) }),
  'botshelf client (in process)': new Client({ apiUrl: server.url, token, botId: bot.id, fetch: (request) => server.app.fetch(request) }),
}

const setup = clients['botshelf client (HTTP)'] as Client
await setup.uploadFile({ key: 'small.txt', content: 'x'.repeat(100) })
await setup.createTable({ name: 'benchTable', schema: { category: '', amount: 0 } })
for (let start = 0; start < 1000; start += 500) {
  const rows = Array.from({ length: 500 }, (_, k) => ({ category: `cat${(start + k) % 25}`, amount: start + k }))
  await setup.createTableRows({ table: 'benchTable', rows })
}

const calls: Record<string, Call> = {
  'getFile (100 B file)': (c) => c.getFile({ id: 'small.txt' }),
  'findTableRows (filter, 20 of 1000 rows)': (c) => c.findTableRows({ table: 'benchTable', filter: { category: 'cat3' }, limit: 20 }),
}

/** Failed calls per client name (a loaded machine can reset kept-alive connections); reported, not hidden. */
const failures: Record<string, number> = {}

/** Calls done and milliseconds spent in one slice of `sliceMs`, with `concurrency` calls in flight. */
async function slice(name: string, call: Call, concurrency: number, sliceMs: number): Promise<{ done: number; ms: number }> {
  const client = clients[name]!
  const started = performance.now()
  const deadline = started + sliceMs
  let done = 0
  const worker = async () => {
    while (performance.now() < deadline) {
      try {
        await call(client)
        done++
      } catch (error) {
        failures[name] = (failures[name] ?? 0) + 1
        console.error(`${name}: ${(error as Error).message}`)
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return { done, ms: performance.now() - started }
}

/**
 * Calls per second of every client over `SECONDS` each: the clients take turns in slices of 250 ms (the order
 * rotating every cycle) and each one's calls and time are summed, so that a change of the shared machine's load
 * hits all of them alike; failed calls do not count.
 */
async function measureInterleaved(call: Call, concurrency: number): Promise<Record<string, number>> {
  const names = Object.keys(clients)
  const done: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]))
  const spent: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]))
  for (let cycle = 0; Math.min(...names.map((n) => spent[n]!)) < SECONDS * 1000; cycle++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + cycle) % names.length]!
      const result = await slice(name, call, concurrency, 250)
      done[name]! += result.done
      spent[name]! += result.ms
    }
  }
  return Object.fromEntries(names.map((n) => [n, done[n]! / (spent[n]! / 1000)]))
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const results: Array<{ call: string; concurrency: number; perClient: Record<string, number> }> = []
for (const [callName, call] of Object.entries(calls)) {
  for (const name of Object.keys(clients)) {
    for (let i = 0; i < 200; i++) await call(clients[name]!).catch(() => (failures[name] = (failures[name] ?? 0) + 1))
  }
  for (const concurrency of [1, CONCURRENCY]) {
    const samples: Record<string, number[]> = Object.fromEntries(Object.keys(clients).map((n) => [n, []]))
    for (let round = 0; round < ROUNDS; round++) {
      const rates = await measureInterleaved(call, concurrency)
      for (const name of Object.keys(clients)) samples[name]!.push(rates[name]!)
    }
    const perClient = Object.fromEntries(Object.entries(samples).map(([n, s]) => [n, median(s)]))
    results.push({ call: callName, concurrency, perClient })
    console.error(`${callName} x${concurrency}:`, perClient)
  }
}

await server.close()
rmSync(dir, { recursive: true, force: true })

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
console.log(`Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; ${SECONDS} s per measurement, median of ${ROUNDS} rounds.\n`)
console.log('| call | in flight | @botpress/client (calls/s) | botshelf client (calls/s) | ratio botshelf / official | botshelf over fetch (calls/s) | ratio fetch / official | botshelf in process (calls/s) |')
console.log('|---|---|---|---:|---:|---:|---:|---:|')
for (const r of results) {
  const theirs = r.perClient['@botpress/client (HTTP)']!
  const ours = r.perClient['botshelf client (HTTP)']!
  const overFetch = r.perClient['botshelf client (HTTP, fetch)']!
  const inProcess = r.perClient['botshelf client (in process)']!
  console.log(`| ${r.call} | ${r.concurrency} | ${fmt(theirs)} | ${fmt(ours)} | ${(ours / theirs).toFixed(2)} | ${fmt(overFetch)} | ${(overFetch / theirs).toFixed(2)} | ${fmt(inProcess)} |`)
}
for (const r of results) {
  printRatio({
    bench: 'client',
    row: `${r.call.split(' ')[0]}, botshelf client vs @botpress/client, ${r.concurrency} in flight`,
    botshelf: r.perClient['botshelf client (HTTP)']!,
    baseline: r.perClient['@botpress/client (HTTP)']!,
    unit: 'calls/s',
    goal: 1.2,
  })
}
console.log(`\nFailed calls during the measurements: ${JSON.stringify(failures)}`)
