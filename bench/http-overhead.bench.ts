/**
 * HTTP overhead of the service: `npx tsx bench/http-overhead.bench.ts [--seconds 10] [--rounds 3] [--connections 32]`.
 *
 * `getFile` (GET /v1/files/{key} with the bot's token) on `botshelf serve` in a child process (file-backed SQLite,
 * rate limits off, log level warn), against a bare Hono app on @hono/node-server in another child process that
 * answers the same JSON from a `Map` (`bench/baselines/bare-hono.mjs`). The load is autocannon in this process,
 * `--connections` keep-alive connections, one request at a time each; the two servers alternate in `--rounds`
 * rounds of `--seconds` each, after a warm-up of each. Prints RATIO lines for `npm run bench` and a Markdown table.
 * Beside the rates it prints each server's CPU time per request (user + system, from `/proc/<pid>/stat`, Linux):
 * on a shared machine the rate follows the CPU the load generator leaves each side, the CPU per request much less.
 */
import os from 'node:os'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { printRatio } from './report/index.js'
import { startChild } from './support/child.js'
import { cpuSeconds } from './support/cpu-time.js'
import { startServe } from './support/serve-process.js'

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
  },
})
const seconds = Number(values.seconds)
const rounds = Number(values.rounds)
const connections = Number(values.connections)

interface Run {
  requestsPerSecond: number
  p50: number
  p99: number
  errors: number
  /** The server's CPU time per answered request, µs (NaN where /proc is missing). */
  cpuMicroseconds: number
}

/** User + system CPU time of a process so far, in µs (NaN off Linux). */
function cpuTime(pid: number | undefined): number {
  return (cpuSeconds(pid) ?? Number.NaN) * 1_000_000
}

function load(url: string, headers: Record<string, string>, duration: number, serverPid?: number): Promise<Run> {
  const cpuBefore = cpuTime(serverPid)
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, headers, pipelining: 1 }, (error: Error | null, result: autocannon.Result) => {
      if (error) return reject(error)
      const bad = result.non2xx + result.errors + result.timeouts
      const cpuMicroseconds = (cpuTime(serverPid) - cpuBefore) / Math.max(1, result.requests.total)
      resolve({ requestsPerSecond: result.requests.total / (result.duration || duration), p50: result.latency.p50, p99: result.latency.p99, errors: bad, cpuMicroseconds })
    })
  })
}

async function main(): Promise<void> {
  const serve = await startServe({ args: ['--rate-limit', 'off', '--log-level', 'warn'] })
  const key = 'bench/hello.txt'
  const auth = { authorization: `Bearer ${serve.token}`, 'x-bot-id': serve.botId }
  const defined = await fetch(`${serve.url}/v1/files`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ key, size: 5, tags: { kind: 'bench' } }) })
  const { file } = (await defined.json()) as { file: { uploadUrl: string } }
  const uploaded = await fetch(file.uploadUrl, { method: 'PUT', body: 'hello' })
  if (uploaded.status !== 200) throw new Error(`upload: ${uploaded.status} ${await uploaded.text()}`)
  const botshelfUrl = `${serve.url}/v1/files/${encodeURIComponent(key)}`
  const sample = await fetch(botshelfUrl, { headers: auth })
  const json = await sample.text()
  if (sample.status !== 200) throw new Error(`getFile: ${sample.status} ${json}`)

  const hono = startChild(['bench/baselines/bare-hono.mjs', key, json])
  const honoUrl = `http://127.0.0.1:${(await hono.waitFor(/listening (\d+)/))[1]}/v1/files/${encodeURIComponent(key)}`
  const check = await (await fetch(honoUrl)).text()
  if (check !== json) throw new Error('the bare Hono app does not answer the same JSON')

  const botshelfRuns: Run[] = []
  const honoRuns: Run[] = []
  try {
    await load(botshelfUrl, auth, 2)
    await load(honoUrl, {}, 2)
    for (let round = 0; round < rounds; round++) {
      botshelfRuns.push(await load(botshelfUrl, auth, seconds, serve.process.pid))
      honoRuns.push(await load(honoUrl, {}, seconds, hono.process.pid))
      const [ours, bare] = [botshelfRuns.at(-1)!, honoRuns.at(-1)!]
      process.stderr.write(
        `round ${round + 1}/${rounds}: botshelf ${ours.requestsPerSecond.toFixed(0)} req/s (${ours.cpuMicroseconds.toFixed(0)} µs CPU each), ` +
          `bare Hono ${bare.requestsPerSecond.toFixed(0)} req/s (${bare.cpuMicroseconds.toFixed(0)} µs CPU each)\n`,
      )
    }
  } finally {
    await hono.stop()
    await serve.stop()
  }
  const errors = [...botshelfRuns, ...honoRuns].reduce((sum, run) => sum + run.errors, 0)
  if (errors > 0) throw new Error(`${errors} requests failed or answered other than 2xx: the figures would not mean anything`)
  const median = (runs: Run[], pick: (run: Run) => number): number => {
    const sorted = runs.map(pick).sort((a, b) => a - b)
    return sorted[Math.floor(sorted.length / 2)]!
  }
  const botshelf = median(botshelfRuns, (run) => run.requestsPerSecond)
  const baseline = median(honoRuns, (run) => run.requestsPerSecond)
  printRatio({ bench: 'http-overhead', row: `getFile over loopback, ${connections} keep-alive connections, vs a bare Hono handler answering from a Map`, botshelf, baseline, unit: 'req/s', goal: 0.5 })
  const ourCpu = median(botshelfRuns, (run) => run.cpuMicroseconds)
  const bareCpu = median(honoRuns, (run) => run.cpuMicroseconds)
  const load1 = os.loadavg().map((value) => value.toFixed(1)).join(' ')
  process.stdout.write(
    [
      '',
      `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; ${new Date().toISOString()}; load average ${load1}`,
      `botshelf ran ${serve.built ? 'built (the bundled command, as npm start runs it)' : 'from source through tsx (dist/ missing or older than src/)'}`,
      '',
      `| server (${connections} connections, ${rounds} × ${seconds} s, medians) | req/s | p50 ms | p99 ms | server CPU µs per request |`,
      '|---|---:|---:|---:|---:|',
      `| botshelf getFile | ${botshelf.toFixed(0)} | ${median(botshelfRuns, (r) => r.p50)} | ${median(botshelfRuns, (r) => r.p99)} | ${ourCpu.toFixed(0)} |`,
      `| bare Hono, same JSON from a Map | ${baseline.toFixed(0)} | ${median(honoRuns, (r) => r.p50)} | ${median(honoRuns, (r) => r.p99)} | ${bareCpu.toFixed(0)} |`,
      `| ratio | ${(botshelf / baseline).toFixed(2)} | | | ${(bareCpu / ourCpu).toFixed(2)} (bare / botshelf) |`,
      '',
    ].join('\n'),
  )
}

await main()
