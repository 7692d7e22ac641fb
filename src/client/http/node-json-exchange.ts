/**
 * JSON calls over `node:http`/`node:https` with keep-alive agents, used by the client under Node when the caller
 * gave no `fetch` of its own (decision 1203). Why: for a small JSON call, Node's `fetch` spends more time building
 * `Request`/`Response` objects and web streams than the call spends on the socket; a plain `http.request` with a
 * buffered answer does the same exchange for a fraction of the CPU.
 *
 * This module imports nothing of Node statically: `loadNodeJsonExchange` imports `node:http` and `node:https`
 * through a variable specifier, only when the runtime is Node, so `botshelf/client` bundles for browsers and
 * edge runtimes unchanged (they keep `fetch`). Time limits, aborts, retries and errors stay in `Transport`: an
 * exchange only sends one request under the attempt's signal and buffers the answer.
 */

/** One JSON request as the transport hands it to an exchange. */
export interface JsonExchangeRequest {
  method: string
  url: string
  /** Header names in lower case. */
  headers: Record<string, string>
  /** The JSON text, or `undefined` for a request without a body. */
  body: string | undefined
  /** The attempt's signal: aborting it destroys the request. */
  signal: AbortSignal
}

/** A buffered answer, read by the transport like a `Response` (status, a header, the text). */
export interface JsonExchangeResponse {
  readonly ok: boolean
  readonly status: number
  readonly url: string
  readonly headers: { get(name: string): string | null }
  /** Always `null`: the body is already read (nothing to cancel). */
  readonly body: null
  text(): Promise<string>
}

/** Sends one request and buffers its answer. */
export interface JsonExchange {
  (request: JsonExchangeRequest): Promise<JsonExchangeResponse>
  /** Throws a `TypeError` for a header name or value `http.request` would refuse (as `Headers` does for `fetch`). */
  checkHeaders(headers: Record<string, string>): void
}

/** What this module uses of `node:http` and `node:https`. */
interface NodeHttpModule {
  Agent: new (options: { keepAlive: boolean; timeout: number }) => unknown
  request(
    url: URL,
    options: { method: string; headers: Record<string, string>; agent: unknown; signal: AbortSignal },
    onResponse: (response: NodeIncoming) => void,
  ): NodeOutgoing
  validateHeaderName?: (name: string) => void
  validateHeaderValue?: (name: string, value: string) => void
}

interface NodeIncoming {
  statusCode?: number
  headers: Record<string, string | string[] | undefined>
  setEncoding(encoding: 'utf8'): void
  on(event: 'data', listener: (chunk: string) => void): NodeIncoming
  on(event: 'end' | 'close', listener: () => void): NodeIncoming
  on(event: 'error', listener: (error: Error) => void): NodeIncoming
}

interface NodeOutgoing {
  on(event: 'error', listener: (error: Error) => void): NodeOutgoing
  end(body?: Uint8Array): void
}

/**
 * Idle kept-alive sockets are closed after this long (as Node's `fetch` does after 4 s), before a server with a
 * longer keep-alive would, so that a request rarely meets a socket the server is closing.
 */
const IDLE_SOCKET_MS = 4_000

const encoder = new TextEncoder()
let loading: Promise<JsonExchange | undefined> | undefined
let loaded: JsonExchange | null | undefined

/**
 * The exchange once loaded: a function, `null` when the runtime is not Node (or the import failed), `undefined`
 * before `loadNodeJsonExchange` has settled.
 *
 * @example
 * ```ts
 * const exchange = nodeJsonExchange() ?? (await loadNodeJsonExchange())
 * ```
 */
export function nodeJsonExchange(): JsonExchange | null | undefined {
  return loaded
}

/**
 * Loads the exchange once per process: under Node, `node:http` and `node:https` are imported and one keep-alive
 * agent per protocol is made; elsewhere (browsers, workers, Deno, Bun) it answers `undefined`.
 *
 * @example
 * ```ts
 * const exchange = await loadNodeJsonExchange()
 * if (exchange) console.log((await exchange({ method: 'GET', url, headers: {}, body: undefined, signal })).status)
 * ```
 */
export function loadNodeJsonExchange(): Promise<JsonExchange | undefined> {
  loading ??= importNodeHttp().then(
    (modules) => {
      loaded = modules ? createNodeJsonExchange(modules.http, modules.https) : null
      return loaded ?? undefined
    },
    () => {
      loaded = null
      return undefined
    },
  )
  return loading
}

function isNode(): boolean {
  const scope = globalThis as { process?: { versions?: Record<string, string | undefined> }; Deno?: unknown }
  const versions = scope.process?.versions
  return typeof versions?.node === 'string' && versions.bun === undefined && scope.Deno === undefined
}

async function importNodeHttp(): Promise<{ http: NodeHttpModule; https: NodeHttpModule } | undefined> {
  if (!isNode()) return undefined
  // Variable specifiers: bundlers leave them alone, so a browser bundle never sees a `node:` module.
  const httpSpecifier = 'node:http'
  const httpsSpecifier = 'node:https'
  const [http, https] = await Promise.all([
    import(/* @vite-ignore */ /* webpackIgnore: true */ httpSpecifier) as Promise<NodeHttpModule>,
    import(/* @vite-ignore */ /* webpackIgnore: true */ httpsSpecifier) as Promise<NodeHttpModule>,
  ])
  return { http, https }
}

/**
 * Checks header names and values as `http.request` will, before anything is sent: a bad value (a stray newline
 * from a shell variable) throws a `TypeError` from the call, as the `Headers` of `fetch` does.
 *
 * @example
 * ```ts
 * checkHeaders(http, { 'x-user-id': 'u1' }) // fine
 * checkHeaders(http, { 'x-user-id': 'u1\n' }) // throws TypeError
 * ```
 */
function checkHeaders(http: NodeHttpModule, headers: Record<string, string>): void {
  for (const name of Object.keys(headers)) {
    http.validateHeaderName?.(name)
    http.validateHeaderValue?.(name, headers[name]!)
  }
}

/**
 * An exchange over the given modules (exported for tests, which hand it Node's own).
 *
 * @example
 * ```ts
 * const exchange = createNodeJsonExchange(await import('node:http'), await import('node:https'))
 * ```
 */
export function createNodeJsonExchange(http: NodeHttpModule, https: NodeHttpModule): JsonExchange {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
    'https:': new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
  }
  const exchange = (request: JsonExchangeRequest): Promise<JsonExchangeResponse> => {
    const url = new URL(request.url)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return Promise.reject(new TypeError(`apiUrl: expected an http: or https: URL, received ${url.protocol}`))
    }
    const module = url.protocol === 'https:' ? https : http
    const headers = request.headers
    // The length is always declared: Node would send a DELETE's body without one, which the server would then
    // read as the start of the next request.
    const body = request.body === undefined ? undefined : encoder.encode(request.body)
    if (body !== undefined) headers['content-length'] = String(body.byteLength)
    return new Promise<JsonExchangeResponse>((resolve, reject) => {
      const outgoing = module.request(url, { method: request.method, headers, agent: agents[url.protocol as 'http:'], signal: request.signal }, (incoming) => {
        let text = ''
        let ended = false
        incoming.setEncoding('utf8')
        incoming.on('data', (chunk) => {
          text += chunk
        })
        incoming.on('error', reject)
        incoming.on('end', () => {
          ended = true
          resolve(new BufferedAnswer(incoming.statusCode ?? 0, incoming.headers, text, request.url))
        })
        incoming.on('close', () => {
          if (!ended) reject(Object.assign(new Error('The connection closed before the end of the answer'), { code: 'ECONNRESET' }))
        })
      })
      outgoing.on('error', reject)
      outgoing.end(body)
    })
  }
  return Object.assign(exchange, { checkHeaders: (headers: Record<string, string>) => checkHeaders(http, headers) })
}

class BufferedAnswer implements JsonExchangeResponse {
  public readonly ok: boolean
  public readonly body = null
  public readonly headers: { get(name: string): string | null }

  public constructor(
    public readonly status: number,
    raw: Record<string, string | string[] | undefined>,
    private readonly content: string,
    public readonly url: string,
  ) {
    this.ok = status >= 200 && status <= 299
    this.headers = {
      get: (name) => {
        const value = raw[name.toLowerCase()]
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
      },
    }
  }

  public text(): Promise<string> {
    return Promise.resolve(this.content)
  }
}
