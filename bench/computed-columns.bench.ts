/**
 * AI-column throughput: `npx tsx bench/computed-columns.bench.ts [--rows 200] [--delay-ms 20]`.
 *
 * A table with one AI column computes `--rows` rows against the fake OpenAI-compatible chat server, which answers
 * each request after `--delay-ms` (a model's latency), with 1, 2, 4, 8 and 16 computations in flight per table
 * (`compute.concurrency`). The baseline is the same number of requests sent straight to the fake server through the
 * same language-model adapter with the same number in flight: the ratio is what the computation lifecycle (claims,
 * one transaction per value, statuses) costs on top of the model calls. Prints a Markdown table for bench/README.md.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createApp } from '../server/src/http/app.js'
import { createOpenAiCompatibleLanguageModel } from '../server/src/language-model/index.js'
import { chatCompletion, startFakeChatServer } from '../server/src/language-model/fake-chat-server.test-support.js'
import { createTablesFeature } from '../server/src/tables/index.js'

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name)
  return at > 0 ? Number(process.argv[at + 1]) : fallback
}
const ROWS = arg('--rows', 200)
const DELAY_MS = arg('--delay-ms', 20)

const fake = await startFakeChatServer()
fake.reply(() => ({ delayMs: DELAY_MS, body: chatCompletion('positive') }))
const model = createOpenAiCompatibleLanguageModel({ url: fake.url, model: 'bench', maxRetries: 0 })

/** Rows computed per second by the service with `inFlight` computations per table. */
async function service(inFlight: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'botshelf-bench-computed-'))
  const app = await createApp({
    dataDir: dir,
    logger: { log() {} },
    languageModel: model,
    jobs: { pollMs: 20 },
    features: [createTablesFeature({ search: { embedder: null }, compute: { concurrency: inFlight, sweepIntervalMs: 60_000, sandbox: null } })],
  })
  try {
    const bot = await app.admin.createBot({ name: 'bench' })
    const { token } = await app.admin.createToken({ botId: bot.id, role: 'bot' })
    const headers = { authorization: `Bearer ${token}`, 'x-bot-id': bot.id, 'content-type': 'application/json' }
    const schema = { review: { type: 'string' }, sentiment: { type: 'string', 'x-zui': { computed: { action: 'ai', prompt: 'Sentiment: {{review}}', dependencies: ['review'] } } } }
    await app.fetch(new Request('http://bench/v1/tables', { method: 'POST', headers, body: JSON.stringify({ name: 'benchTable', schema, isComputeEnabled: true }) }))
    const table = await app.services.backend.tables.loadTable(bot.id, 'benchTable')
    const rows = Array.from({ length: ROWS }, (_, i) => ({ review: `review number ${i}` }))
    const start = performance.now()
    const answer = await app.fetch(new Request('http://bench/v1/tables/benchTable/rows', { method: 'POST', headers, body: JSON.stringify({ rows }) }))
    if (answer.status !== 200) throw new Error(`createTableRows answered ${answer.status}: ${await answer.text()}`)
    while ((await app.services.backend.computed.countStaleRows(table.id)) > 0) await new Promise((resolve) => setTimeout(resolve, 5))
    return ROWS / ((performance.now() - start) / 1000)
  } finally {
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Requests per second sent straight to the fake model through the adapter, `inFlight` at a time. */
async function baseline(inFlight: number): Promise<number> {
  let next = 0
  const start = performance.now()
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < ROWS) {
        next += 1
        await model.complete({ messages: [{ role: 'user', content: `Sentiment: review number ${next}` }] })
      }
    }),
  )
  return ROWS / ((performance.now() - start) / 1000)
}

const results: string[] = []
for (const inFlight of [1, 2, 4, 8, 16]) {
  const base = await baseline(inFlight)
  const ours = await service(inFlight)
  results.push(`| ${inFlight} | ${ours.toFixed(1)} | ${base.toFixed(1)} | ${(ours / base).toFixed(3)} |`)
}
await fake.close()
process.stdout.write(
  `Machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; ${ROWS} rows, model latency ${DELAY_MS} ms\n\n` +
    `| in flight per table | rows computed per second (service) | model calls per second (adapter alone) | ratio |\n|---:|---:|---:|---:|\n${results.join('\n')}\n`,
)
