import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { createApp, type AppOptions, type BotshelfApp } from './app.js'

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
   * Longest time a single request may take, body included, in ms. Default 3 600 000 (1 hour), so a 1 GB upload
   * over a slow link is not cut by Node's 5-minute default. Headers must still arrive within 60 s.
   *
   * @example
   * ```ts
   * await createServer({ dataDir: './.botshelf', requestTimeoutMs: 2 * 60 * 60 * 1000 })
   * ```
   */
  requestTimeoutMs?: number
}

/** A listening server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:3000`. Point `apiUrl` / `BP_API_URL` at it. */
  readonly url: string
  readonly port: number
  readonly app: BotshelfApp
  /** The underlying `node:http` server (timeouts, `upgrade` listeners). */
  readonly httpServer: Server
  /**
   * Stops accepting connections, lets requests in flight finish for up to `shutdownGraceMs`, cuts the connections
   * still open, waits (at most 5 s) for their handlers to record the outcome (a cut upload becomes
   * `upload_failed`), then closes the app.
   */
  close(): Promise<void>
}

/** How long an idle keep-alive connection stays open, in ms. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000

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
  const { port = 3000, host = '127.0.0.1', shutdownGraceMs = 10_000, requestTimeoutMs = 3_600_000, ...appOptions } = options
  const app = await createApp(appOptions)
  // Handlers still running (an upload reading its body): close() lets them finish before closing the database.
  let handlersRunning = 0
  let onHandlersSettled: (() => void) | undefined
  const trackedFetch = async (request: Request): Promise<Response> => {
    handlersRunning += 1
    try {
      return await app.fetch(request)
    } finally {
      handlersRunning -= 1
      if (handlersRunning === 0) onHandlersSettled?.()
    }
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
  let server: Server
  try {
    server = await new Promise<Server>((resolvePromise, reject) => {
      const created = serve({
        fetch: trackedFetch,
        port,
        hostname: host,
        serverOptions: { requestTimeout: requestTimeoutMs, headersTimeout: requestTimeoutMs > 0 ? Math.min(66_000, requestTimeoutMs) : 66_000 },
      }) as Server
      // Keep idle connections longer than clients' keep-alive agents do (4-5 s), so a client never reuses a
      // socket the server is closing at that instant (ECONNRESET under load).
      created.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS
      created.once('error', reject)
      created.once('listening', () => {
        created.off('error', reject)
        resolvePromise(created)
      })
    })
  } catch (error) {
    await app.close()
    throw error
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
    close() {
      closing ??= (async () => {
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
