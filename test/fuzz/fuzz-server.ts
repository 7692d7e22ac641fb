// The server side of `npm run fuzz`: a real botshelf on a port in its own process (so the fuzzer's own work does
// not blur the server's event-loop delay), its log kept in memory, answering the parent on stdin/stdout.
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { startTestService } from '../helpers/service.js'
import { prepareFuzzTarget } from './prepare-target.js'

const service = await startTestService({ listen: true, rateLimit: false, backend: 'sqlite' })
const target = await prepareFuzzTarget(service)
const delay = monitorEventLoopDelay({ resolution: 10 })
delay.enable()
process.stdout.write(`READY ${JSON.stringify({ url: service.url, target })}\n`)

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'report') {
    const errors = service.logs.filter((entry) => entry['level'] === 'error')
    const ms = (ns: number): number => Math.round(ns / 1e4) / 100
    const slowest = service.logs
      .filter((entry) => typeof entry['ms'] === 'number')
      .sort((a, b) => (b['ms'] as number) - (a['ms'] as number))
      .slice(0, 8)
      .map((entry) => ({ ms: entry['ms'], status: entry['status'], method: entry['method'], path: String(entry['path']).slice(0, 80) }))
    process.stdout.write(`REPORT ${JSON.stringify({ slowest, eventLoopDelayMs: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) }, errorLines: errors.length, firstErrors: errors.slice(0, 5), logLines: service.logs.length })}\n`)
    delay.reset()
    service.logs.length = 0
  }
  if (line === 'stop') break
}
await service.close()
process.exit(0)
