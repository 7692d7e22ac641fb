/**
 * Client-side cost per call, no network: `npx tsx bench/client-overhead.bench.ts [--seconds 2] [--rounds 3]`.
 *
 * Both clients answer from a canned in-memory response instead of a server, so only their own work is
 * measured (input splitting, URL and query building, headers, request object, JSON parse, error mapping):
 * botshelf's client through its `fetch` option, `@botpress/client` (the baseline) through an axios adapter set
 * on its instance. Calls run one after another for a fixed time; rounds alternate the order; median round.
 * Complements bench/client.bench.ts, where the server and the socket dominate.
 */
import { createRequire } from 'node:module'
import { cpus } from 'node:os'
import { performance } from 'node:perf_hooks'
import { Client } from '../src/client/index.js'
import { printRatio } from './report/index.js'

const argValue = (name: string, fallback: number) => {
  const index = process.argv.indexOf(name)
  return index > 0 ? Number(process.argv[index + 1]) : fallback
}
const SECONDS = argValue('--seconds', 2)
const ROUNDS = argValue('--rounds', 3)

const fileBody = JSON.stringify({
  file: {
    id: 'file_01', botId: 'bot', key: 'small.txt', url: 'http://127.0.0.1:3000/v1/content/files/x', size: 100,
    contentType: 'text/plain', tags: { a: '1' }, metadata: {}, createdAt: '2026-11-22T00:00:00.000Z',
    updatedAt: '2026-11-22T00:00:00.000Z', accessPolicies: [], index: false, status: 'upload_completed', owner: { type: 'bot' },
  },
})
const rowsBody = JSON.stringify({
  rows: Array.from({ length: 20 }, (_, i) => ({ id: i + 1, computed: {}, createdAt: '2026-11-22T00:00:00.000Z', category: 'cat3', amount: i })),
  hasMore: false, offset: 0, limit: 20,
})
const notFoundBody = JSON.stringify({ id: 'err_20261122000000x00000000', code: 404, type: 'ResourceNotFound', message: 'File "x" not found' })

function canned(url: string): { status: number; body: string } {
  if (url.includes('/rows/find')) return { status: 200, body: rowsBody }
  if (url.includes('/v1/files/missing')) return { status: 404, body: notFoundBody }
  return { status: 200, body: fileBody }
}

const ours = new Client({
  apiUrl: 'http://127.0.0.1:3000', token: 't', botId: 'b',
  fetch: (request) => {
    const { status, body } = canned(request.url)
    return new Response(body, { status, headers: { 'content-type': 'application/json' } })
  },
})
const official = createRequire(import.meta.url)('@botpress/client') as typeof import('@botpress/client')
const theirs = new official.Client({ apiUrl: 'http://127.0.0.1:3000', token: 't', botId: 'b' })
;(theirs as unknown as { axiosInstance: { defaults: { adapter: unknown } } }).axiosInstance.defaults.adapter = async (config: {
  url?: string
  baseURL?: string
}) => {
  const { status, body } = canned(`${config.baseURL ?? ''}${config.url ?? ''}`)
  const response = { data: body, status, statusText: String(status), headers: { 'content-type': 'application/json' }, config, request: {} }
  if (status >= 400) throw Object.assign(new Error(`Request failed with status code ${status}`), { isAxiosError: true, response, config })
  return response
}

type AnyClient = Pick<Client, 'getFile' | 'findTableRows'>
const clients: Record<string, AnyClient> = { official: theirs as unknown as AnyClient, botshelf: ours }
const calls: Record<string, (c: AnyClient) => Promise<unknown>> = {
  'getFile': (c) => c.getFile({ id: 'small.txt' }),
  'findTableRows (20 rows)': (c) => c.findTableRows({ table: 'benchTable', filter: { category: 'cat3' }, limit: 20 }),
  'getFile answered 404 (error parsing)': (c) => c.getFile({ id: 'missing' }).catch((e: unknown) => e),
}

async function measure(client: AnyClient, call: (c: AnyClient) => Promise<unknown>): Promise<number> {
  const deadline = performance.now() + SECONDS * 1000
  const started = performance.now()
  let done = 0
  while (performance.now() < deadline) {
    await call(client)
    done++
  }
  return done / ((performance.now() - started) / 1000)
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const rows: string[] = []
for (const [name, call] of Object.entries(calls)) {
  for (const client of Object.values(clients)) for (let i = 0; i < 500; i++) await call(client)
  const samples: Record<string, number[]> = { official: [], botshelf: [] }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['official', 'botshelf'] : ['botshelf', 'official']
    for (const which of order) samples[which]!.push(await measure(clients[which]!, call))
  }
  const a = median(samples['official']!)
  const b = median(samples['botshelf']!)
  console.error(name, { official: a, botshelf: b })
  printRatio({ bench: 'client-overhead', row: `${name}, canned response, botshelf client vs @botpress/client`, botshelf: b, baseline: a, unit: 'calls/s' })
  rows.push(`| ${name} | ${Math.round(a).toLocaleString('en-US')} | ${Math.round(b).toLocaleString('en-US')} | ${(b / a).toFixed(2)} |`)
}
console.log(`Machine: ${cpus().length} cores, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; ${SECONDS} s per measurement, median of ${ROUNDS} rounds.\n`)
console.log('| call (canned response, no network) | @botpress/client (calls/s) | botshelf client (calls/s) | ratio botshelf / official |')
console.log('|---|---|---|---|')
for (const row of rows) console.log(row)
