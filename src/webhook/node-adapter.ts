import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FetchHandler } from './create-webhook-handler.js'
import { errorAnswer } from './answers.js'
import { WebhookBodyConsumedError } from './errors.js'

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

/** A node request that a framework may have read already: `rawBody` (kept by a parser's `verify`), or `body`. */
type NodeRequest = IncomingMessage & { rawBody?: unknown; body?: unknown; _body?: unknown }

const consumedMessage =
  'Body: already read by a body parser (express.json() or similar) and no raw body kept, so the signature cannot be checked. ' +
  "Mount the webhook route before the parser, put express.raw({ type: '*/*' }) on it, or keep the bytes as req.rawBody " +
  '(express.json({ verify: (req, _res, buf) => { req.rawBody = buf } }))'

function asBytes(value: unknown): Uint8Array | undefined {
  if (typeof value === 'string') return new TextEncoder().encode(value)
  if (value instanceof Uint8Array) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
  return undefined
}

/**
 * The body of a node request for the Fetch handler: the bytes a framework already read (`req.rawBody`, or a
 * `Buffer`/string `req.body`), the live stream when nobody read it, or a stream that fails at once with
 * `WebhookBodyConsumedError` when it was read and nothing was kept (waiting on it would hang forever).
 */
function bodyOf(req: NodeRequest): BodyInit {
  const kept = asBytes(req.rawBody) ?? asBytes(req.body)
  if (kept) return kept as BodyInit
  if (req.readableEnded || req._body === true || (req.body !== undefined && req.body !== null)) {
    return new ReadableStream<Uint8Array>({
      start(controller) {
        controller.error(new WebhookBodyConsumedError(consumedMessage))
      },
    })
  }
  return toWebStream(req)
}

/**
 * A Fetch `Request` for a node request (headers, method, URL, body as `toNodeHandler` reads it): for frameworks
 * whose handlers get a node request, such as fastify's `request.raw`.
 *
 * @example
 * ```ts
 * const response = await handler(toFetchRequest(request.raw))
 * ```
 */
export function toFetchRequest(req: IncomingMessage, origin = 'http://localhost'): Request {
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
    ...(hasBody ? { body: bodyOf(req as NodeRequest), duplex: 'half' } : {}),
  } as RequestInit)
}

/**
 * Adapts a Fetch-API handler (such as `createWebhookHandler`'s) to `node:http`, and to express (a route or
 * middleware). The body streams into the handler, so the size limit applies while it arrives; when the handler
 * answers before reading the whole body (413), the connection is closed after the answer instead of reading the
 * rest. A body a framework already read is used when its bytes were kept (`req.rawBody`, or a `Buffer`/string
 * `req.body` as `express.raw()` and `express.text()` leave it); read without them (`express.json()` alone), the
 * request is answered at once with 500 `BODY_ALREADY_READ`, which says how to fix it.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http'
 * createServer(toNodeHandler(createWebhookHandler({ runtime, secret }))).listen(3001)
 * app.post('/webhook', express.raw({ type: '*\/*' }), toNodeHandler(handler)) // express
 * ```
 */
export function toNodeHandler(handler: FetchHandler, options: NodeHandlerOptions = {}): NodeRequestListener {
  const origin = options.origin ?? 'http://localhost'
  return (req, res) => {
    void (async () => {
      let response: Response
      try {
        response = await handler(toFetchRequest(req, origin))
      } catch (error) {
        // The detail stays here (the handler's own logger reports its failures); the caller gets the wire body.
        void error
        response = errorAnswer('Internal', 'HANDLER_FAILED', 'The webhook handler failed; retry later')
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
