// Probes `GET /health` on a fresh connection every `everyMs` from a worker thread of its own, so that its timings
// are the server's and not the stalls of the fuzzer's event loop (which builds and parses multi-MB bodies).
// Started by `startHealthProber`; answers 'report' with its `HealthProbeReport` since the last one, and 'stop' with
// its last report before it ends.
import { request as httpRequest } from 'node:http'
import { performance } from 'node:perf_hooks'
import { parentPort, workerData } from 'node:worker_threads'
import { HEALTH_PROBE_HEADER, type HealthProbe, type HealthProbeReport } from './health-probe.js'

const { url, everyMs } = workerData as { url: string; everyMs: number }
const target = new URL(url)

function probe(): Promise<HealthProbe> {
  const started = performance.now()
  let connectedMs = -1
  let firstByteMs = -1
  return new Promise((resolve) => {
    const outgoing = httpRequest({ host: target.hostname, port: target.port, path: '/health', agent: false, timeout: 10_000, headers: { [HEALTH_PROBE_HEADER]: '1' } }, (incoming) => {
      firstByteMs = performance.now() - started
      incoming.resume()
      incoming.on('end', () => resolve({ ms: performance.now() - started, connectedMs, firstByteMs, ok: incoming.statusCode === 200, at: Date.now() }))
    })
    outgoing.on('socket', (socket) => socket.once('connect', () => (connectedMs = performance.now() - started)))
    outgoing.on('timeout', () => outgoing.destroy())
    outgoing.on('error', () => resolve({ ms: performance.now() - started, connectedMs, firstByteMs, ok: false, at: Date.now() }))
    outgoing.end()
  })
}

let running = true
let report: HealthProbeReport = { probes: 0, failures: 0, maxMs: 0, slowest: [] }
parentPort?.on('message', (message) => {
  if (message === 'report') {
    parentPort?.postMessage(report)
    report = { probes: 0, failures: 0, maxMs: 0, slowest: [] }
  }
  if (message === 'stop') running = false
})
while (running) {
  const result = await probe()
  report.probes += 1
  if (!result.ok) report.failures += 1
  report.maxMs = Math.max(report.maxMs, result.ms)
  report.slowest.push(result)
  report.slowest.sort((a, b) => b.ms - a.ms)
  report.slowest.length = Math.min(report.slowest.length, 5)
  await new Promise((resolve) => setTimeout(resolve, everyMs))
}
parentPort?.postMessage(report)
