// The server side of `npm run fuzz`: a real botshelf on a port in its own process (so the fuzzer's own work does
// not blur the server's event-loop delay), its log kept in memory, answering the parent on stdin/stdout.
import type { Socket } from 'node:net'
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { startTestService } from '../helpers/service.js'
import { HEALTH_PROBE_HEADER } from './health-probe.js'
import { prepareFuzzTarget } from './prepare-target.js'

const service = await startTestService({ listen: true, rateLimit: false, backend: 'sqlite' })
const target = await prepareFuzzTarget(service)
const delay = monitorEventLoopDelay({ resolution: 10 })
delay.enable()

// Where a `/health` answer's time goes on the server: from accepting its connection to the request reaching the
// handlers (the event loop's backlog, the head's parsing), then to the answer written. The time a connection waits
// in the kernel's accept queue is not visible here: the prober's total minus these is that wait plus the client's.
const acceptedAt = new WeakMap<Socket, number>()
interface HealthTiming {
  acceptToRequestMs: number
  requestToAnswerMs: number
  at: number
}
let healthTimings: HealthTiming[] = []
service.httpServer?.on('connection', (socket: Socket) => acceptedAt.set(socket, performance.now()))
service.httpServer?.prependListener('request', (incoming, outgoing) => {
  const accepted = acceptedAt.get(incoming.socket as Socket)
  // Only the prober's requests (the first of their connection): a fuzzer's connection may wait for its own client.
  acceptedAt.delete(incoming.socket as Socket)
  if (incoming.url !== '/health' || incoming.headers[HEALTH_PROBE_HEADER] === undefined || accepted === undefined) return
  const arrived = performance.now()
  outgoing.once('finish', () => healthTimings.push({ acceptToRequestMs: arrived - accepted, requestToAnswerMs: performance.now() - arrived, at: Date.now() }))
})
const round = (ms: number): number => Math.round(ms * 10) / 10

// The longest stalls of the event loop (a 10 ms tick late by 60 ms or more) and the requests in flight meanwhile:
// the candidates for the work that held the loop.
interface Stall {
  ms: number
  at: number
  inFlight: string[]
  /** Garbage collection during the stall (ms), and the last log lines before it (jobs log theirs). */
  gcMs: number
  lastLog: string[]
}
const gcPauses: Array<{ end: number; ms: number }> = []
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcPauses.push({ end: entry.startTime + entry.duration, ms: entry.duration })
  if (gcPauses.length > 1000) gcPauses.splice(0, gcPauses.length - 1000)
}).observe({ entryTypes: ['gc'] })
const inFlight = new Set<string>()
service.httpServer?.prependListener('request', (incoming, outgoing) => {
  const entry = `${incoming.method} ${String(incoming.url).split('?')[0]?.slice(0, 60)} (${incoming.headers['content-length'] ?? '-'} bytes)`
  inFlight.add(entry)
  outgoing.once('close', () => inFlight.delete(entry))
})
let stalls: Stall[] = []
let lastTick = performance.now()
setInterval(() => {
  const now = performance.now()
  const late = now - lastTick - 10
  lastTick = now
  if (late < 60) return
  const gcMs = gcPauses.filter((pause) => pause.end >= now - late - 10).reduce((sum, pause) => sum + pause.ms, 0)
  const lastLog = service.logs.slice(-4).map((line) => `${String(line['msg'])} ${String(line['kind'] ?? line['path'] ?? '')} ${String(line['durationMs'] ?? line['ms'] ?? '')}`.trim())
  stalls.push({ ms: round(late), at: Date.now(), inFlight: [...inFlight].slice(0, 8), gcMs: round(gcMs), lastLog })
  stalls.sort((a, b) => b.ms - a.ms)
  stalls.length = Math.min(stalls.length, 5)
}, 10).unref()
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
    const health = {
      answers: healthTimings.length,
      maxAcceptToRequestMs: round(Math.max(0, ...healthTimings.map((t) => t.acceptToRequestMs))),
      maxRequestToAnswerMs: round(Math.max(0, ...healthTimings.map((t) => t.requestToAnswerMs))),
      slowest: [...healthTimings]
        .sort((a, b) => b.acceptToRequestMs + b.requestToAnswerMs - (a.acceptToRequestMs + a.requestToAnswerMs))
        .slice(0, 5)
        .map((t) => ({ acceptToRequestMs: round(t.acceptToRequestMs), requestToAnswerMs: round(t.requestToAnswerMs), at: t.at })),
    }
    healthTimings = []
    const longestStalls = stalls
    stalls = []
    process.stdout.write(`REPORT ${JSON.stringify({ health, stalls: longestStalls, slowest, eventLoopDelayMs: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) }, errorLines: errors.length, firstErrors: errors.slice(0, 5), logLines: service.logs.length })}\n`)
    delay.reset()
    service.logs.length = 0
  }
  if (line === 'stop') break
}
await service.close()
process.exit(0)
