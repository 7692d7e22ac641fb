// `npm run fuzz [-- --count 25000 --seeds 1,2,3,4 --concurrency 8]`: the large fuzz run. Starts botshelf in a child
// process, sends `count` hostile requests per seed, and fails (exit 1) on any 5xx, error without the wire body or
// request id, request left without an answer, error log line, or `/health` answer slower than 100 ms.
import { spawn } from 'node:child_process'
import { setPriority } from 'node:os'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import { startHealthProber } from './health-probe.js'
import { runFuzz, type FuzzReport } from './run-fuzz.js'
import type { FuzzTarget } from './fuzz-requests.js'

const HEALTH_BOUND_MS = 100
const { values } = parseArgs({ options: { count: { type: 'string', default: '25000' }, seeds: { type: 'string', default: '1,2,3,4' }, concurrency: { type: 'string', default: '8' } } })
const count = Number(values.count)
const seeds = values.seeds.split(',').map(Number)
const concurrency = Number(values.concurrency)

const child = spawn(process.execPath, ['--import', 'tsx', new URL('./fuzz-server.ts', import.meta.url).pathname], { stdio: ['pipe', 'pipe', 'inherit'] })
const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
async function expectLine(prefix: string): Promise<any> {
  for (;;) {
    const next = await lines.next()
    if (next.done) throw new Error(`the fuzz server exited before "${prefix}"`)
    if (next.value.startsWith(`${prefix} `)) return JSON.parse(next.value.slice(prefix.length + 1))
  }
}
const { url, target } = (await expectLine('READY')) as { url: string; target: FuzzTarget }

// The server (a child process) and the /health prober (a worker thread) keep the normal CPU priority; the thread
// that builds the hostile requests then lowers its own (threads on Linux), as if the load came from another
// machine: on a shared 2-core machine the bound measures the server, not the fuzzer's CPU use (decision 0705).
const prober = startHealthProber(url, 25)
const FUZZER_NICE = 10
try {
  setPriority(FUZZER_NICE)
} catch (error) {
  console.log(`could not lower the fuzzer's priority (${(error as Error).message}); it competes with the server for the CPU`)
}

let failed = false
const started = Date.now()
for (const seed of seeds) {
  const seedStarted = Date.now()
  const report: FuzzReport = await runFuzz({ url, target, seed, count, concurrency, prober })
  child.stdin.write('report\n')
  const server = (await expectLine('REPORT')) as {
    eventLoopDelayMs: { p50: number; p99: number; max: number }
    errorLines: number
    firstErrors: unknown[]
    health: { answers: number; maxAcceptToRequestMs: number; maxRequestToAnswerMs: number; slowest: unknown[] }
    stalls: unknown[]
  }
  const seconds = (Date.now() - seedStarted) / 1000
  const fivexx = Object.entries(report.statuses).filter(([status]) => Number(status) >= 500).reduce((sum, [, n]) => sum + n, 0)
  console.log(
    `seed ${seed}: ${report.requests} requests in ${seconds.toFixed(0)} s (${(report.requests / seconds).toFixed(0)}/s); statuses ${JSON.stringify(report.statuses)}; ` +
      `5xx ${fivexx}; findings ${report.findings.length}; error log lines ${server.errorLines}; ` +
      `/health ${report.healthProbes} probes, slowest ${report.healthMaxMs.toFixed(1)} ms, failed ${report.healthFailures} ` +
      `(server side: accept to handler at most ${server.health.maxAcceptToRequestMs} ms, handler to answer at most ${server.health.maxRequestToAnswerMs} ms); ` +
      `server event-loop delay p50 ${server.eventLoopDelayMs.p50} ms, p99 ${server.eventLoopDelayMs.p99} ms, max ${server.eventLoopDelayMs.max} ms`,
  )
  for (const finding of report.findings.slice(0, 20)) console.log(`  ${finding.label} ${finding.method} ${finding.path}: ${finding.problem}`)
  for (const slow of (server as { slowest?: unknown[] }).slowest ?? []) console.log(`  slow: ${JSON.stringify(slow)}`)
  for (const probe of report.healthSlowest) console.log(`  slow /health probe: ${JSON.stringify({ ...probe, ms: Math.round(probe.ms * 10) / 10, connectedMs: Math.round(probe.connectedMs * 10) / 10, firstByteMs: Math.round(probe.firstByteMs * 10) / 10 })}`)
  for (const timing of server.health.slowest) console.log(`  slow /health on the server: ${JSON.stringify(timing)}`)
  for (const stall of server.stalls) console.log(`  event-loop stall: ${JSON.stringify(stall)}`)
  for (const line of server.firstErrors) console.log(`  error log: ${JSON.stringify(line).slice(0, 400)}`)
  if (fivexx > 0 || report.findings.length > 0 || server.errorLines > 0 || report.healthFailures > 0 || report.healthMaxMs > HEALTH_BOUND_MS) failed = true
}
await prober.stop()
child.stdin.write('stop\n')
console.log(`${seeds.length * count} requests in ${((Date.now() - started) / 1000).toFixed(0)} s: ${failed ? 'FAILED' : 'passed'}`)
process.exit(failed ? 1 : 0)
