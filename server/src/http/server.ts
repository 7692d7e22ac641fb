import { createServer as createHttpServer, maxHeaderSize, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getRequestListener, RequestError } from '@hono/node-server'
import { createApp, type AppOptions, type BotshelfApp } from './app.js'
import { metricsFetchHandler, startMetricsServer, type MetricsServer } from '../metrics/index.js'
import {
  checkTimeout,
  clientErrorListener,
  closeIfBodyUnread,
  lingerIfAnsweredEarly,
  defaultTimeouts,
  idleConnectionListener,
  InFlightRequests,
  newRequestId,
  type InFlightRequest,
  refusalResponse,
} from './connections/index.js'
import { attachNodeBody } from './node-body.js'
import { TurnBudget } from './connections/turn-budget.js'

/** Options of `createServer`: the app's options plus where to listen. */
export interface ServerOptions extends AppOptions {
  /**
   * TCP port; `0` picks a free one (read it from `url`). Default 3000.
   *
   * @example
   * ```ts
   * const { url } = await createServer({ memory: true, port: 0 })
   * ```
   */
  port?: number
  /**
   * Serve `GET /metrics` on this port (same host) instead of the service's port; 0 picks a free one (read it from
   * `metricsUrl`). Default: on the service's port (see `metrics`).
   *
   * @example
   * ```ts
   * const server = await createServer({ dataDir: './.botshelf', metricsPort: 9464 })
   * ```
   */
  metricsPort?: number
  /**
   * Interface to bind. Default `127.0.0.1` (local only); `0.0.0.0` to listen on every interface.
   *
   * @example
   * ```ts
   * await createServer({ dataDir: './.botshelf', host: '0.0.0.0' })
   * ```
   */
  host?: string
  /**
   * How long `close()` lets requests in flight finish before cutting connections, in ms. Default 10 000
   * (`botshelf serve --shutdown-grace <seconds>`); 0 cuts them at once.
   *
   * @example
   * ```ts
   * await createServer({ dataDir: './.botshelf', shutdownGraceMs: 30_000 })
   * ```
   */
  shutdownGraceMs?: number
  /**
   * Longest time a single request may take to arrive, body included, in ms: the bound of uploads. Default
   * 3 600 000 (1 hour), so a 1 GB upload over a slow link is not cut by Node's 5-minute default. Other bodies
   * must arrive within `bodyTimeoutMs` (60 s), headers within `headersTimeoutMs` (20 s). 0 switches it off.
   *
   * @example
   * ```ts
   * await createServer({ dataDir: './.botshelf', requestTimeoutMs: 2 * 60 * 60 * 1000 })
   * ```
   */
  requestTimeoutMs?: number
  /**
   * Longest time a request's headers may take to arrive, in ms, from its first byte (a new connection: from
   * the connection). Past it the client gets 408 `OperationTimeout` and the connection is closed. Default
   * 20 000; never more than `requestTimeoutMs`.
   *
   * @example
   * ```ts
   * await createServer({ dataDir: './.botshelf', headersTimeoutMs: 10_000 })
   * ```
   */
  headersTimeoutMs?: number
  /**
   * Longest time a connection with a request in progress may stay silent (no byte either way), in ms: a stalled
   * upload or a client that stopped reading its download is cut. Default 120 000; 0 switches it off.
   *
   * @example
   * ```ts
   * await createServer({ dataDir: './.botshelf', idleTimeoutMs: 300_000 })
   * ```
   */
  idleTimeoutMs?: number
}

/** A listening server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:3000`. Point `apiUrl` / `BP_API_URL` at it. */
  readonly url: string
  readonly port: number
  readonly app: BotshelfApp
  /** The underlying `node:http` server (timeouts, `upgrade` listeners). */
  readonly httpServer: Server
  /** The base URL of the separate metrics port (`metricsPort`), when there is one. */
  readonly metricsUrl?: string
  /**
   * Stops accepting connections, lets requests in flight finish for up to `shutdownGraceMs`, cuts the connections
   * still open, waits (at most 5 s) for their handlers to record the outcome (a cut upload becomes
   * `upload_failed`), then closes the app.
   */
  close(): Promise<void>
}

/** The listen backlog asked of the kernel; Linux caps it at `net.core.somaxconn` (4096 on recent kernels). */
const LISTEN_BACKLOG = 4096

/** How long an idle keep-alive connection stays open, in ms. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000

/**
 * How much of one turn of the event loop requests may take before the next ones wait for later turns: libuv accepts
 * one new connection per turn, so long turns leave new connections waiting in the kernel (decision 1220).
 */
const TURN_BUDGET_MS = 10

/** A load balancer's health check: answered in the turn it arrives, never behind other requests. */
const isHealthCheck = (incoming: IncomingMessage): boolean =>
  (incoming.method === 'GET' || incoming.method === 'HEAD') && (incoming.url === '/health' || incoming.url?.startsWith('/health?') === true)

/**
 * After the grace cut the connections, how long `close()` still waits for handlers to notice (an upload records
 * `upload_failed`) before closing the database under them.
 */
const HANDLER_SETTLE_MS = 5_000

/**
 * Starts the service on a port with `@hono/node-server`. Resolves once it listens.
 *
 * @example
 * ```ts
 * const server = await createServer({ dataDir: './.botshelf', port: 3000 })
 * console.log(server.url) // http://127.0.0.1:3000
 * process.on('SIGTERM', () => void server.close())
 * ```
 */
export async function createServer(options: ServerOptions = {}): Promise<RunningServer> {
  const {
    port = 3000,
    host = '127.0.0.1',
    shutdownGraceMs = 10_000,
    requestTimeoutMs = defaultTimeouts.requestTimeoutMs,
    headersTimeoutMs = defaultTimeouts.headersTimeoutMs,
    idleTimeoutMs = defaultTimeouts.idleTimeoutMs,
    metricsPort,
    ...otherOptions
  } = options
  // With a metrics port, the service's own port does not answer /metrics.
  const appOptions: AppOptions = metricsPort !== undefined && otherOptions.metrics !== false ? { ...otherOptions, metrics: 'collect' } : otherOptions
  checkTimeout('requestTimeoutMs', requestTimeoutMs)
  checkTimeout('headersTimeoutMs', headersTimeoutMs)
  checkTimeout('idleTimeoutMs', idleTimeoutMs)
  // Node refuses a headers timeout over the request timeout; 0 (off) becomes a day for headers.
  const headersTimeout = Math.min(headersTimeoutMs || 86_400_000, requestTimeoutMs || Number.POSITIVE_INFINITY)
  const app = await createApp(appOptions)
  const { logger } = app.services
  const now = (): Date => app.services.now()
  const inFlight = new InFlightRequests()
  // Handlers still running (an upload reading its body): close() lets them finish before closing the database.
  let handlersRunning = 0
  let onHandlersSettled: (() => void) | undefined
  // A request in progress: known to the idle-connection and client-error listeners, and awaited by close().
  // `until: 'answered'` ends it when `run` settles (the direct lane's answers are whole once it does), otherwise when
  // the response closes (a download may still stream).
  const tracked = async <T>(
    incoming: IncomingMessage,
    outgoing: ServerResponse,
    run: (flight: InFlightRequest) => Promise<T>,
    until: 'answered' | 'closed' = 'closed',
  ): Promise<T> => {
    const socket = incoming.socket
    const flight: InFlightRequest = { method: incoming.method ?? 'GET', path: (incoming.url ?? '/').split('?')[0] ?? '/', startedAt: Date.now() }
    inFlight.start(socket, flight)
    if (until === 'closed') outgoing.once('close', () => inFlight.end(socket, flight))
    handlersRunning += 1
    try {
      return await run(flight)
    } finally {
      if (until === 'answered') inFlight.end(socket, flight)
      handlersRunning -= 1
      if (handlersRunning === 0) onHandlersSettled?.()
    }
  }
  const trackedFetch = async (request: Request, incoming: IncomingMessage, outgoing: ServerResponse): Promise<Response> => {
    const socket = incoming.socket
    // Node leaves an HTTP/1.1 request without Host to us (requireHostHeader is off): answer it with a wire error.
    if (incoming.httpVersion === '1.1' && incoming.headers.host === undefined) return refuseRequest('HTTP/1.1 requests must carry a Host header', socket.remoteAddress)
    // Uploads and JSON bodies are read from the socket stream directly (the same bytes, without two web-stream layers).
    if (incoming.method !== 'GET' && incoming.method !== 'HEAD') attachNodeBody(request, incoming)
    return tracked(incoming, outgoing, async (flight) => {
      const response = await app.fetch(request, socket.remoteAddress !== undefined ? { remoteAddress: socket.remoteAddress } : {})
      closeIfBodyUnread(incoming, outgoing)
      flight.requestId = response.headers.get('x-request-id') ?? undefined
      return response
    })
  }
  // A request @hono/node-server could not turn into a `Request` (a bad Host header, a backslash in the path).
  const refuseRequest = (reason: string, remoteAddress: string | undefined): Response => {
    const requestId = newRequestId()
    logger.log('warn', 'request refused', { requestId, status: 400, reason, code: null, remoteAddress: remoteAddress ?? null })
    return refusalResponse({ status: 400, type: 'InvalidPayload', message: `The request cannot be read: ${reason}` }, now(), requestId)
  }
  const onListenerError = (error: unknown): Response => {
    if (error instanceof RequestError) return refuseRequest(error.message, undefined)
    const requestId = newRequestId()
    const detail = error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) }
    logger.log('error', 'unhandled error', { requestId, ...detail })
    return refusalResponse({ status: 500, type: 'Internal', message: 'An internal error occurred' }, now(), requestId)
  }
  const handlersSettled = (): Promise<void> =>
    handlersRunning === 0
      ? Promise.resolve()
      : new Promise<void>((resolveSettled) => {
          const cap = setTimeout(resolveSettled, HANDLER_SETTLE_MS)
          onHandlersSettled = () => {
            clearTimeout(cap)
            resolveSettled()
          }
        })
  const turns = new TurnBudget({ budgetMs: TURN_BUDGET_MS })
  let server: Server
  try {
    server = await new Promise<Server>((resolvePromise, reject) => {
      const listener = getRequestListener(
        (request, env) => {
          const { incoming, outgoing } = env as { incoming: IncomingMessage; outgoing: ServerResponse }
          return trackedFetch(request, incoming, outgoing)
        },
        { hostname: host, errorHandler: onListenerError },
      )
      const created = createHttpServer(
        {
          requestTimeout: requestTimeoutMs,
          headersTimeout,
          // Node checks both timeouts on this interval (30 s by default): check often enough to honour them.
          connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(headersTimeout / 4))),
          requireHostHeader: false,
        },
        (incoming, outgoing) => {
          const handle = (): void => {
            // A request that waited for a later turn while its connection was cut (a client gone, the shutdown's
            // cut) has no one to answer: its handler never starts, so nothing runs after close() closed the app.
            if (incoming.socket.destroyed) return
            // A plain hot read (getFile) is answered on node:http directly; the rest goes through the Hono app. The
            // lane takes requests without a body only, so only the app's answers may come before their body.
            const fallback = (): Promise<void> => {
              lingerIfAnsweredEarly(incoming, outgoing)
              return listener(incoming, outgoing)
            }
            const direct = app.answerDirect(incoming, outgoing, fallback)
            if (direct) void tracked(incoming, outgoing, () => direct, 'answered')
            else void fallback()
          }
          turns.run(handle, { urgent: isHealthCheck(incoming) })
        },
      )
      // Keep idle connections longer than clients' keep-alive agents do (4-5 s), so a client never reuses a
      // socket the server is closing at that instant (ECONNRESET under load).
      created.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS
      // A turn that accepted a connection ends early: more may be waiting, and libuv accepts one per turn.
      created.on('connection', () => turns.hurry())
      created.setTimeout(idleTimeoutMs)
      created.on('timeout', idleConnectionListener({ idleTimeoutMs, inFlight, now, logger }))
      created.on('clientError', clientErrorListener({ limits: { maxHeaderSize, headersTimeoutMs: headersTimeout, requestTimeoutMs }, inFlight, now, logger }))
      created.once('error', reject)
      created.once('listening', () => {
        created.off('error', reject)
        resolvePromise(created)
      })
      // A deep accept queue (the kernel caps it at net.core.somaxconn): a burst of new connections waits to be
      // accepted instead of having its SYNs dropped and retried a second later (decision 1211).
      created.listen({ port, host, backlog: LISTEN_BACKLOG })
    })
  } catch (error) {
    await app.close()
    throw error
  }
  let metricsServer: MetricsServer | undefined
  if (metricsPort !== undefined && app.services.metrics) {
    try {
      metricsServer = await startMetricsServer({ host, port: metricsPort, fetch: metricsFetchHandler(app.services, app.services.metrics) })
    } catch (error) {
      await new Promise<void>((resolveClose) => server.close(() => resolveClose()))
      await app.close()
      throw error
    }
  }
  const address = server.address() as AddressInfo
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host
  const url = `http://${shownHost}:${address.port}`

  let closing: Promise<void> | undefined
  return {
    url,
    port: address.port,
    app,
    httpServer: server,
    ...(metricsServer ? { metricsUrl: metricsServer.url } : {}),
    close() {
      closing ??= (async () => {
        await metricsServer?.close()
        await new Promise<void>((resolveClose) => {
          const idle = setInterval(() => server.closeIdleConnections(), 100)
          const force = setTimeout(() => server.closeAllConnections(), shutdownGraceMs)
          server.close(() => {
            clearInterval(idle)
            clearTimeout(force)
            resolveClose()
          })
          server.closeIdleConnections()
        })
        await handlersSettled()
        await app.close()
      })()
      return closing
    },
  }
}
