import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getRequestListener } from '@hono/node-server'

/** A listening metrics port. */
export interface MetricsServer {
  /** Its base URL; metrics are at `${url}/metrics`. */
  readonly url: string
  readonly port: number
  /** Stops it (open scrapes are cut: a scrape is short and retried by the scraper). */
  close(): Promise<void>
}

/**
 * Listens on a port of its own for `GET /metrics` only (`--metrics-port`), so the scrape can stay on an internal
 * interface while the API faces the world.
 *
 * @example
 * ```ts
 * const metricsServer = await startMetricsServer({ host: '127.0.0.1', port: 9464, fetch: metricsFetchHandler(app.services, metrics) })
 * ```
 */
export async function startMetricsServer(options: {
  /** Interface to bind, e.g. `host: '127.0.0.1'`. */
  host: string
  /** TCP port, 0 for a free one, e.g. `port: 9464`. */
  port: number
  /** Answers each request, e.g. `fetch: metricsFetchHandler(app.services, metrics)`. */
  fetch: (request: Request) => Promise<Response>
}): Promise<MetricsServer> {
  const server: Server = createServer(getRequestListener((request) => options.fetch(request), { hostname: options.host }))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const shownHost = options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host.includes(':') ? `[${options.host}]` : options.host
  return {
    url: `http://${shownHost}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
