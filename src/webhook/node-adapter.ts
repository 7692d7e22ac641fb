import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FetchHandler } from './create-webhook-handler.js'

/** Options of `toNodeHandler`. */
export interface NodeHandlerOptions {
  /**
   * Origin used to build the request URL when the `host` header is absent. Default `http://localhost`.
   * @example `origin: 'https://bot.example.com'`
   */
  origin?: string
}

/** A `node:http` request listener. */
export type NodeRequestListener = (req: IncomingMessage, res: ServerResponse) => void

function toWebStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let closed = false
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on('data', (chunk: Buffer) => {
        if (closed) return
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
        if ((controller.desiredSize ?? 1) <= 0) req.pause()
      })
      req.on('end', () => {
        if (!closed) controller.close()
        closed = true
      })
      req.on('error', (error) => {
        if (!closed) controller.error(error)
        closed = true
      })
    },
    pull() {
      req.resume()
    },
    cancel() {
      closed = true
      req.pause()
    },
  })
}

function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const v of value) headers.append(name, v)
    else headers.set(name, value)
  }
  const base = req.headers.host ? `http://${req.headers.host}` : origin
  const method = req.method ?? 'GET'
  const hasBody = method !== 'GET' && method !== 'HEAD'
  return new Request(new URL(req.url ?? '/', base), {
    method,
    headers,
    ...(hasBody ? { body: toWebStream(req), duplex: 'half' } : {}),
  } as RequestInit)
}

/**
 * Adapts a Fetch-API handler (such as `createWebhookHandler`'s) to `node:http`. The body streams into the
 * handler, so the size limit applies while it arrives; when the handler answers before reading the whole body
 * (413), the connection is closed after the answer instead of reading the rest.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http'
 * createServer(toNodeHandler(createWebhookHandler({ runtime, secret }))).listen(3001)
 * ```
 */
export function toNodeHandler(handler: FetchHandler, options: NodeHandlerOptions = {}): NodeRequestListener {
  const origin = options.origin ?? 'http://localhost'
  return (req, res) => {
    void (async () => {
      let response: Response
      try {
        response = await handler(toRequest(req, origin))
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        response = new Response(JSON.stringify({ ok: false, code: 'internal', message: `Handler failed: ${message}` }), {
          status: 500,
          headers: { 'content-type': 'application/json; charset=utf-8' },
        })
      }
      const body = new Uint8Array(await response.arrayBuffer())
      const headers: Record<string, string> = {}
      response.headers.forEach((value, name) => {
        headers[name] = value
      })
      if (!req.complete) headers['connection'] = 'close'
      res.writeHead(response.status, headers)
      res.end(body, () => {
        if (!req.complete) req.destroy()
      })
    })()
  }
}
