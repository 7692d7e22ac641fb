/**
 * `GET /health` on a fresh connection while clients load the server:
 * `npx tsx bench/health-under-load.bench.ts [--clients 200] [--seconds 15] [--every 20]`.
 *
 * Three processes besides this one: `botshelf serve` (file-backed SQLite, rate limits off, log level warn), the load
 * (autocannon's command line: `--clients` keep-alive connections sending `getFile` as fast as answers come) and the
 * prober (`bench/support/health-prober.mjs`: a new TCP connection every `--every` ms, `GET /health`, time from
 * connecting to the end of the answer). The prober first runs alone for a few seconds (the idle figure), then with
 * the load. The bound is a p99 of 100 ms under the load; the RATIO line puts the bound as the baseline
 * (ratio = 100 ms / p99, at goal when ≥ 1).
 */
import os from 'node:os'
import { createRequire } from 'node:module'
import { parseArgs } from 'node:util'
import { printRatio } from './report/index.js'
import { startChild } from './support/child.js'
import { startServe } from './support/serve-process.js'

/** The bound on the p99 of `/health` under load, in ms. */
const HEALTH_P99_BOUND_MS = 100

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '15' },
    every: { type: 'string', default: '20' },
  },
})
const clients = Number(values.clients)
const seconds = Number(values.seconds)
const every = Number(values.every)

interface Probes {
  times: number[]
  failures: number
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

async function probe(url: string, duration: number): Promise<Probes> {
  const prober = startChild(['bench/support/health-prober.mjs', `${url}/health`, String(duration), String(every)])
  const line = await prober.waitFor(/PROBES (.*)\n/)
  await prober.exited()
  return JSON.parse(line[1]!) as Probes
}

function summary(probes: Probes): { p50: number; p99: number; max: number; count: number } {
  const sorted = [...probes.times].sort((a, b) => a - b)
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? Number.NaN, count: sorted.length }
}

async function main(): Promise<void> {
  const serve = await startServe({ args: ['--rate-limit', 'off', '--log-level', 'warn'] })
  const auth = { authorization: `Bearer ${serve.token}`, 'x-bot-id': serve.botId }
  const key = 'bench/health.txt'
  const defined = await fetch(`${serve.url}/v1/files`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ key, size: 2 }) })
  const { file } = (await defined.json()) as { file: { uploadUrl: string } }
  await fetch(file.uploadUrl, { method: 'PUT', body: 'ok' })
  const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js')
  let idle: Probes
  let loaded: Probes
  let loadOutput = ''
  try {
    idle = await probe(serve.url, 3)
    const load = startChild([
      autocannonBin,
      '--connections', String(clients),
      '--duration', String(seconds + 4),
      '--headers', `authorization=${auth.authorization}`,
      '--headers', `x-bot-id=${auth['x-bot-id']}`,
      '--json',
      `${serve.url}/v1/files/${encodeURIComponent(key)}`,
    ])
    // Let the load reach its pace before probing.
    await new Promise((resolve) => setTimeout(resolve, 2000))
    loaded = await probe(serve.url, seconds)
    await load.exited()
    loadOutput = load.stdout()
  } finally {
    await serve.stop()
  }
  const loadResult = JSON.parse(loadOutput.trim().split('\n').at(-1) ?? '{}') as { requests?: { average?: number }; non2xx?: number; errors?: number }
  const quiet = summary(idle)
  const busy = summary(loaded)
  printRatio({
    bench: 'health-under-load',
    row: `GET /health p99 on a fresh connection while ${clients} clients load the server (baseline: the issue's bound)`,
    botshelf: busy.p99,
    baseline: HEALTH_P99_BOUND_MS,
    unit: 'ms',
    goal: 1,
    lowerIsBetter: true,
  })
  const loadAverage = os.loadavg().map((value) => value.toFixed(1)).join(' ')
  const ms = (value: number): string => value.toFixed(1)
  process.stdout.write(
    [
      '',
      `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; ${new Date().toISOString()}; load average ${loadAverage}`,
      `Load: ${clients} keep-alive connections on getFile, ${Math.round(loadResult.requests?.average ?? 0)} req/s, ${(loadResult.non2xx ?? 0) + (loadResult.errors ?? 0)} failed`,
      '',
      '| /health on a fresh connection | probes | failed | p50 ms | p99 ms | max ms |',
      '|---|---:|---:|---:|---:|---:|',
      `| server idle | ${quiet.count} | ${idle.failures} | ${ms(quiet.p50)} | ${ms(quiet.p99)} | ${ms(quiet.max)} |`,
      `| under the load | ${busy.count} | ${loaded.failures} | ${ms(busy.p50)} | ${ms(busy.p99)} | ${ms(busy.max)} |`,
      '',
    ].join('\n'),
  )
}

await main()
