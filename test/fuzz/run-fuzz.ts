import { Agent, request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { performance } from 'node:perf_hooks'
import { jsonLimitFor } from '../../src/server/http/body.js'
import { fuzzRandom } from './fuzz-random.js'
import { nextFuzzRequest, type FuzzRequest, type FuzzTarget } from './fuzz-requests.js'
import { nextRawRequest } from './raw-requests.js'

/** Options of one fuzz run. */
export interface FuzzRunOptions {
  /** Base URL of a listening botshelf (`http://127.0.0.1:PORT`). */
  url: string
  target: FuzzTarget
  seed: number
  /** How many requests to send (API, content URLs, stray and raw). */
  count: number
  /** Requests in flight at once (keep-alive connections). Default 8. */
  concurrency?: number
  /** Share of raw malformed requests on fresh sockets. Default 0.03. */
  rawShare?: number
  /** How often `GET /health` is probed on a fresh connection, in ms. Default 25. */
  healthEveryMs?: number
}

/** One thing the fuzz run found wrong. */
export interface FuzzFinding {
  label: string
  method: string
  path: string
  problem: string
}

/** What a fuzz run saw. */
export interface FuzzReport {
  seed: number
  requests: number
  /** Responses by status. */
  statuses: Record<number, number>
  findings: FuzzFinding[]
  /** `GET /health` probes made while the run went on, and the slowest answer in ms. */
  healthProbes: number
  healthMaxMs: number
  /** Probes that failed (no answer, or not 200). */
  healthFailures: number
  /** Requests with a body over their route's limit whose connection was closed before the client read the 413. */
  cutOverLimit: number
}

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

// What each keep-alive socket carried last: a failure on a reused socket is often the previous answer's fault.
const lastOnSocket = new WeakMap<object, string>()

function send(url: URL, agent: Agent, request: FuzzRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let socketRef: object | undefined
    const headers: Record<string, string> = { ...request.headers }
    if (request.body !== undefined) headers['content-length'] = String(request.body.byteLength)
    const outgoing = httpRequest({ host: url.hostname, port: url.port, method: request.method, path: request.path, headers, agent }, (incoming) => {
      const chunks: Buffer[] = []
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
      incoming.on('end', () => {
        if (socketRef) lastOnSocket.set(socketRef, `${request.label} ${request.method} -> ${incoming.statusCode} ${String(incoming.headers['connection'] ?? '')}`)
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') })
      })
      incoming.on('error', reject)
    })
    outgoing.on('socket', (socket) => {
      socketRef = socket
    })
    outgoing.on('error', (error) => {
      const previous = socketRef ? lastOnSocket.get(socketRef) : undefined
      reject(new Error(`${error.message}${previous ? ` (the socket's previous request: ${previous})` : ' (on a new socket)'}`))
    })
    if (request.body !== undefined) outgoing.end(request.body)
    else outgoing.end()
  })
}

function sendRaw(url: URL, bytes: Buffer): Promise<Answer | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) })
    const chunks: Buffer[] = []
    const timer = setTimeout(() => socket.destroy(), 5_000)
    socket.on('connect', () => socket.write(bytes))
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      const text = Buffer.concat(chunks).toString('latin1')
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text)
      if (!match) return resolve(undefined)
      const [head = '', ...rest] = text.split('\r\n\r\n')
      const headers: Record<string, string> = {}
      for (const line of head.split('\r\n').slice(1)) {
        const at = line.indexOf(':')
        if (at > 0) headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim()
      }
      resolve({ status: Number(match[1]), headers, body: rest.join('\r\n\r\n') })
    })
    // The raw cases are complete messages: half-close so a server waiting for more knows there is none.
    socket.on('connect', () => setTimeout(() => socket.end(), 200))
  })
}

/** Problems with one answer: a 5xx, an error without the wire body, a missing request id. */
export function answerProblems(method: string, answer: Answer): string[] {
  const problems: string[] = []
  if (answer.status >= 500) problems.push(`status ${answer.status}: ${answer.body.slice(0, 200)}`)
  if (!answer.headers['x-request-id']) problems.push(`status ${answer.status} without x-request-id`)
  if (answer.status >= 400 && method !== 'HEAD') {
    let body: unknown
    try {
      body = JSON.parse(answer.body)
    } catch {
      problems.push(`status ${answer.status} with a body that is not JSON: ${JSON.stringify(answer.body.slice(0, 100))}`)
    }
    if (body !== undefined) {
      const wire = body as { id?: unknown; code?: unknown; type?: unknown; message?: unknown }
      if (typeof wire.id !== 'string' || wire.code !== answer.status || typeof wire.type !== 'string' || typeof wire.message !== 'string')
        problems.push(`status ${answer.status} without the wire error body: ${answer.body.slice(0, 200)}`)
    }
  }
  return problems
}

function probeHealth(url: URL): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now()
  return new Promise((resolve) => {
    const outgoing = httpRequest({ host: url.hostname, port: url.port, path: '/health', agent: false, timeout: 10_000 }, (incoming) => {
      incoming.resume()
      incoming.on('end', () => resolve({ ms: performance.now() - started, ok: incoming.statusCode === 200 }))
    })
    outgoing.on('timeout', () => outgoing.destroy())
    outgoing.on('error', () => resolve({ ms: performance.now() - started, ok: false }))
    outgoing.end()
  })
}

/**
 * Sends `count` seeded hostile requests to a running botshelf, `concurrency` at a time, while probing
 * `GET /health` on fresh connections; returns what went wrong. The same seed replays the same requests.
 */
export async function runFuzz(options: FuzzRunOptions): Promise<FuzzReport> {
  const url = new URL(options.url)
  const random = fuzzRandom(options.seed)
  const concurrency = options.concurrency ?? 8
  const rawShare = options.rawShare ?? 0.03
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const report: FuzzReport = { seed: options.seed, requests: 0, statuses: {}, findings: [], healthProbes: 0, healthMaxMs: 0, healthFailures: 0, cutOverLimit: 0 }
  let running = true
  const health = (async () => {
    while (running) {
      const probe = await probeHealth(url)
      report.healthProbes += 1
      report.healthMaxMs = Math.max(report.healthMaxMs, probe.ms)
      if (!probe.ok) report.healthFailures += 1
      await new Promise((resolve) => setTimeout(resolve, options.healthEveryMs ?? 25))
    }
  })()
  let issued = 0
  const worker = async (): Promise<void> => {
    while (issued < options.count) {
      issued += 1
      if (random.chance(rawShare)) {
        const raw = nextRawRequest(random, { token: options.target.tokens['bot'] ?? '', botId: options.target.botId })
        const answer = await sendRaw(url, raw.bytes)
        report.requests += 1
        if (answer === undefined) {
          report.findings.push({ label: raw.label, method: 'RAW', path: '', problem: 'no answer' })
          continue
        }
        report.statuses[answer.status] = (report.statuses[answer.status] ?? 0) + 1
        for (const problem of answerProblems('RAW', answer)) report.findings.push({ label: raw.label, method: 'RAW', path: '', problem })
        continue
      }
      const request = nextFuzzRequest(random, options.target)
      report.requests += 1
      try {
        const answer = await send(url, agent, request)
        report.statuses[answer.status] = (report.statuses[answer.status] ?? 0) + 1
        for (const problem of answerProblems(request.method, answer)) report.findings.push({ label: request.label, method: request.method, path: request.path.slice(0, 200), problem })
      } catch (error) {
        // A body over its route's limit is refused on its Content-Length and the connection closed (decision 0701):
        // a client still writing it may see EPIPE/ECONNRESET before it reads the 413. Anything else is a finding.
        const overLimit = (request.body?.byteLength ?? 0) > jsonLimitFor(request.path.split('?')[0] ?? '')
        if (overLimit && /EPIPE|ECONNRESET|socket hang up/.test((error as Error).message)) report.cutOverLimit += 1
        else report.findings.push({ label: request.label, method: request.method, path: request.path.slice(0, 200), problem: `no answer: ${(error as Error).message}` })
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: concurrency }, worker))
  } finally {
    running = false
    await health
    agent.destroy()
  }
  return report
}
