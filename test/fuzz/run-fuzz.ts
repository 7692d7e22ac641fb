import { Agent, request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { fuzzRandom } from './fuzz-random.js'
import { startHealthProber, type HealthProbe, type HealthProber } from './health-probe.js'
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
  /** A prober already running (kept across runs); by default the run starts its own and stops it. */
  prober?: HealthProber
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
  /** The slowest probes, with the time to connect and to the answer's head. */
  healthSlowest: HealthProbe[]
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

/** How long a raw request waits for its answer before it counts as left without one. */
const RAW_ANSWER_WAIT_MS = 30_000

function sendRaw(url: URL, bytes: Buffer): Promise<Answer | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) })
    const chunks: Buffer[] = []
    // Long enough that only a missing answer reaches it, not a server slowed by a loaded machine (seconds).
    const timer = setTimeout(() => socket.destroy(), RAW_ANSWER_WAIT_MS)
    socket.on('connect', () => socket.write(bytes))
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      clearTimeout(halfClose)
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
    // The raw cases are complete messages: half-close so a server waiting for more knows there is none. Soon after an
    // answer starts (a keep-alive answer leaves the socket open), else after 2 s of silence: a client that half-closes
    // before a loaded server took up its request is treated as gone (as Node does), which is not what this checks.
    let halfClose = setTimeout(() => socket.end(), 2_000)
    socket.once('data', () => {
      clearTimeout(halfClose)
      halfClose = setTimeout(() => socket.end(), 200)
    })
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

/**
 * Sends `count` seeded hostile requests to a running botshelf, `concurrency` at a time, while probing
 * `GET /health` on fresh connections from a worker thread (`startHealthProber`); returns what went wrong. The same
 * seed replays the same requests.
 *
 * @example
 * ```ts
 * const report = await runFuzz({ url: service.url, target, seed: 1, count: 400 })
 * expect(report.findings).toEqual([])
 * ```
 */
export async function runFuzz(options: FuzzRunOptions): Promise<FuzzReport> {
  const url = new URL(options.url)
  const random = fuzzRandom(options.seed)
  const concurrency = options.concurrency ?? 8
  const rawShare = options.rawShare ?? 0.03
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const report: FuzzReport = { seed: options.seed, requests: 0, statuses: {}, findings: [], healthProbes: 0, healthMaxMs: 0, healthFailures: 0, healthSlowest: [] }
  const prober = options.prober ?? startHealthProber(options.url, options.healthEveryMs ?? 25)
  if (options.prober) await prober.report() // count this run's probes only
  let issued = 0
  const worker = async (): Promise<void> => {
    while (issued < options.count) {
      issued += 1
      if (random.chance(rawShare)) {
        const raw = nextRawRequest(random, { token: options.target.tokens['bot'] ?? '', botId: options.target.botId })
        const answer = await sendRaw(url, raw.bytes)
        report.requests += 1
        if (answer === undefined) {
          report.findings.push({ label: raw.label, method: 'RAW', path: '', problem: `no answer within ${RAW_ANSWER_WAIT_MS / 1000} s` })
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
        // Every request gets an answer, those refused before their body was read included (decision 0704).
        report.findings.push({ label: request.label, method: request.method, path: request.path.slice(0, 200), problem: `no answer (${request.body?.byteLength ?? 0}-byte body): ${(error as Error).message}` })
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: concurrency }, worker))
  } finally {
    const health = options.prober ? await prober.report() : await prober.stop()
    report.healthProbes = health.probes
    report.healthMaxMs = health.maxMs
    report.healthFailures = health.failures
    report.healthSlowest = health.slowest
    agent.destroy()
  }
  return report
}
