/**
 * One bot token under the load of issue 27, with the service's default settings, on the wall clock:
 * `npx tsx bench/one-token-load.bench.ts [--seconds 30] [--clients 200]`.
 *
 * A real server (file-backed SQLite in a temp folder, the defaults of `createServer`: no rate limit per token,
 * decision 1441) and 200 concurrent `@botpress/client` loops of one bot token with the client's default settings
 * (no retry on 429): upload a file, get it, list a page, round after round until the time is up. Prints the calls
 * answered, the 429s (expected: 0), other failures, and how many acknowledged uploads read back byte for byte.
 * The suite's short version, on a clock that stands still, is test/client/default-load.e2e.test.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer } from '../server/src/http/server.js'
import { silentLogger } from '../server/src/http/logger.js'
import { runOneTokenLoad } from '../test/helpers/one-token-load.js'

const argValue = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(name)
  return index > 0 ? Number(process.argv[index + 1]) : fallback
}
const SECONDS = argValue('--seconds', 30)
const CLIENTS = argValue('--clients', 200)

const { Client } = createRequire(import.meta.url)('@botpress/client') as typeof import('@botpress/client')
const dataDir = await mkdtemp(join(tmpdir(), 'botshelf-load-'))
const server = await createServer({ dataDir, port: 0, host: '127.0.0.1', logger: silentLogger })
try {
  const bot = await server.app.admin.createBot()
  const { token } = await server.app.admin.createToken({ botId: bot.id, role: 'bot' })
  const started = performance.now()
  const result = await runOneTokenLoad(() => new Client({ apiUrl: server.url, token, botId: bot.id }), { clients: CLIENTS, until: started + SECONDS * 1000 })
  const seconds = (performance.now() - started) / 1000
  const reader = new Client({ apiUrl: server.url, token, botId: bot.id })
  let readBack = 0
  for (const written of result.acknowledged) {
    const { file } = await reader.getFile({ id: written.id })
    if ((await (await fetch(file.url)).text()) === written.content) readBack++
  }
  console.log(`${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ${new Date().toISOString()}`)
  console.log(`${CLIENTS} clients of one bot token for ${seconds.toFixed(1)} s: ${result.succeeded} calls answered (${(result.succeeded / seconds).toFixed(0)}/s)`)
  console.log(`429 RateLimited: ${result.rateLimited}; other failures: ${JSON.stringify(result.otherFailures)}`)
  console.log(`acknowledged uploads read back byte for byte: ${readBack} of ${result.acknowledged.length}`)
  if (result.rateLimited > 0 || readBack !== result.acknowledged.length) process.exitCode = 1
} finally {
  await server.close()
  await rm(dataDir, { recursive: true, force: true })
}
