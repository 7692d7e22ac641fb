import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Hono } from 'hono'
import { getPath, tryDecodeURIComponent } from 'hono/utils/url'
import type { AuthPort } from '../store/index.js'
import { bearerToken } from './auth/bearer.js'
import type { AppEnv, AppServices } from './env.js'
import { authenticateCaller } from './pipeline/authenticate.js'
import { errorAnswer, reportServerError } from './pipeline/error-answer.js'
import { answerOperation } from './pipeline/operation-answer.js'
import { operationInputWithoutBody } from './pipeline/operation-input.js'
import { recordRequest } from './pipeline/record.js'
import { beginRequest } from './pipeline/request-id.js'
import { apiAnswerHeaders } from './pipeline/api-answer-headers.js'
import type { DirectOperation, DirectOperationContext } from './register-operation.js'
import type { Operation } from 'botshelf/api'
import { requestOrigin } from './request-origin.js'
import { BoundedMap } from 'botshelf/api'

/** Options of {@link createDirectLane}. */
export interface DirectLaneOptions {
  /**
   * The app's services (auth port, logger, metrics, clock, `publicUrl`).
   *
   * @example
   * ```ts
   * createDirectLane({ services, hono, operations, auth: services.backend.auth })
   * ```
   */
  services: AppServices
  /**
   * The Hono app with every route mounted: the lane reads its routes to serve a path only where the router would pick
   * the same operation.
   *
   * @example
   * ```ts
   * createDirectLane({ services, hono: app, operations: directOperations(filesRoutes), auth })
   * ```
   */
  hono: Hono<AppEnv>
  /**
   * The operations the lane may answer (`registerDirectOperation`).
   *
   * @example
   * ```ts
   * createDirectLane({ services, hono, operations: features.flatMap((f) => (f.routes ? directOperations(f.routes) : [])), auth })
   * ```
   */
  operations: ReadonlyArray<DirectOperation>
  /**
   * The authentication the `/v1` routes use.
   *
   * @example
   * ```ts
   * createDirectLane({ services, hono, operations, auth: backend.auth })
   * ```
   */
  auth: AuthPort
  /**
   * Takes one request from a token's rate-limit bucket: `false` when refused (nothing taken). Absent when token limits
   * are off.
   *
   * @example
   * ```ts
   * createDirectLane({ services, hono, operations, auth, takeForToken: (tokenId) => limiter.takeForToken(tokenId) })
   * ```
   */
  takeForToken?: (tokenId: string) => boolean | Promise<boolean>
}

/** Answers plain hot reads straight on node:http; everything else goes to the Hono app. */
export interface DirectLane {
  /**
   * Takes the request when it is a plain call of a direct operation and returns a promise settled once it is answered;
   * returns `undefined` (synchronously, nothing read or written) for any other request. A request the lane took but
   * should not answer itself (an unknown token, a refused rate limit, an invalid parameter: answers the app gives
   * with their own log lines) is handed to `fallback` before anything was sent or spent.
   *
   * @example
   * ```ts
   * const taken = lane.answer(incoming, outgoing, () => listener(incoming, outgoing))
   * if (!taken) await listener(incoming, outgoing)
   * ```
   */
  answer(incoming: IncomingMessage, outgoing: ServerResponse, fallback: () => Promise<void> | void): Promise<void> | undefined
}

/**
 * Request targets the lane reads: an absolute path of RFC 3986 path characters (no query, no fragment) that the URL
 * parser keeps as it is: no segment that starts with a dot and no encoded dot, which it would resolve as `.`/`..`.
 */
const PLAIN_TARGET = /^(?:\/(?![.]|%2e)[A-Za-z0-9\-._~%!$&'()*+,;=:@]*)+$/i

/** One segment of a route path: a literal, or a parameter (`:id` in Hono's form, `{id}` in the operation's). */
type Segment = { literal: string } | { param: string }

interface LaneRoute {
  readonly direct: DirectOperation
  readonly segments: ReadonlyArray<Segment>
  /** Routes registered before this one that the router tries first on a path of the same shape. */
  readonly earlier: ReadonlyArray<ReadonlyArray<Segment>>
}

function segmentsOf(path: string, param: RegExp): Segment[] {
  return path
    .split('/')
    .slice(1)
    .map((part) => {
      const match = param.exec(part)
      return match ? { param: match[1]! } : { literal: part }
    })
}

/** Whether a route of `shape` may take a path of `route`'s shape (a parameter takes any segment). */
function overlaps(shape: ReadonlyArray<Segment>, route: ReadonlyArray<Segment>): boolean {
  if (shape.length !== route.length) return false
  return shape.every((segment, i) => {
    const other = route[i]!
    return 'param' in segment || 'param' in other || segment.literal === other.literal
  })
}

/** Whether a decoded path's segments fit a route's segments. */
function fits(parts: ReadonlyArray<string>, route: ReadonlyArray<Segment>): boolean {
  if (parts.length !== route.length) return false
  return route.every((segment, i) => ('param' in segment ? parts[i] !== '' : segment.literal === parts[i]))
}

/** A header as Hono's `c.req.header(name)` reads it: repeated values joined by `, `. */
function headerValue(incoming: IncomingMessage, name: string): string | undefined {
  const value = incoming.headers[name.toLowerCase()]
  return Array.isArray(value) ? value.join(', ') : value
}

/**
 * The lane's table: for each direct operation, its path's segments and the routes the router would try before it on
 * a path of that shape (registered earlier, `GET` or any method, not a middleware). A direct operation whose route
 * the Hono app does not hold as registered is left out: the lane never answers for it.
 */
function laneRoutes(hono: Hono<AppEnv>, operations: ReadonlyArray<DirectOperation>): LaneRoute[] {
  const routes = hono.routes
  const table: LaneRoute[] = []
  for (const direct of operations) {
    const index = routes.findIndex((route) => route.method === 'GET' && route.handler === direct.route)
    if (index < 0) continue
    const segments = segmentsOf(direct.operation.path, /^\{([A-Za-z0-9_]+)\}$/)
    const earlier = routes
      .slice(0, index)
      .filter((route) => (route.method === 'GET' || route.method === 'ALL') && !route.path.includes('*'))
      .map((route) => segmentsOf(route.path, /^:([^{}]+)(?:\{.*\})?\??$/))
      .filter((shape) => overlaps(shape, segments))
    table.push({ direct, segments, earlier })
  }
  return table
}

/** How many request targets the lane remembers the route of before it forgets them all. */
const REMEMBERED_TARGETS = 4096

/** A request target the lane answers: its operation, its path as Hono reads it and its decoded parameters. */
interface Routed {
  readonly lane: LaneRoute
  readonly path: string
  readonly params: Readonly<Record<string, string>>
}

/**
 * Where a request target leads: the direct operation whose route the router would pick for it, or `null` when the
 * target is not plain (see `PLAIN_TARGET`) or leads elsewhere. Decoded as Hono decodes it: the path with `getPath`,
 * the parameters with `tryDecodeURIComponent`.
 */
function routeOf(table: ReadonlyArray<LaneRoute>, target: string): Routed | null {
  if (!PLAIN_TARGET.test(target)) return null
  // getPath reads the path out of a whole URL; the origin does not change it.
  const path = getPath({ url: `http://host${target}` } as Request)
  const parts = path.split('/').slice(1)
  for (const lane of table) {
    if (!fits(parts, lane.segments)) continue
    if (lane.earlier.some((shape) => fits(parts, shape))) return null
    const params: Record<string, string> = {}
    lane.segments.forEach((segment, i) => {
      if ('param' in segment) params[segment.param] = parts[i]!.includes('%') ? tryDecodeURIComponent(parts[i]!) : parts[i]!
    })
    return Object.freeze({ lane, path, params: Object.freeze(params) })
  }
  return null
}

/** A header sent exactly once, else `undefined` (node joins some repeated headers and drops others; Hono reads all). */
function singleHeader(incoming: IncomingMessage, name: string): string | undefined {
  const raw = incoming.rawHeaders
  let value: string | undefined
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === name.length && raw[i]!.toLowerCase() === name) {
      if (value !== undefined) return undefined
      value = raw[i + 1]
    }
  }
  return value
}

/**
 * The direct lane of hot reads (decision 1235): a plain `GET` of an operation registered with
 * `registerDirectOperation` (`getFile`) is answered on node:http without the Hono app, its web `Request`/`Headers`
 * emulation and its middleware chain, running the same steps those would: the request id, authentication by bearer
 * token and `x-bot-id`, the token's rate limit, the operation's input validation and handler, the response check of
 * `checkResponses`, the wire error body, the request log line and the metrics (`recordRequest`).
 *
 * Plain means: `GET`, no query, no body, a simple `Host`, a request target of plain path characters whose decoded path
 * the router gives to that operation, one `Authorization` and one `x-bot-id`. Anything else (CORS is on, a query, an
 * unknown token, a refused rate limit, an invalid parameter) is the Hono app's, which answers it as always: the lane
 * hands it over before it sent anything or spent a rate-limit token.
 *
 * @example
 * ```ts
 * const lane = createDirectLane({ services, hono, operations: directOperations(filesRoutes), auth: backend.auth })
 * const taken = lane.answer(incoming, outgoing, () => listener(incoming, outgoing))
 * ```
 */
export function createDirectLane(options: DirectLaneOptions): DirectLane {
  const { services, auth, takeForToken } = options
  const table = laneRoutes(options.hono, options.operations)
  // Where each request target leads (`null`: not the lane's); a server sees the same hot targets again and again.
  const routed = new BoundedMap<string, Routed | null>(REMEMBERED_TARGETS, 'clear')

  const route = (target: string): Routed | null => {
    let found = routed.get(target)
    if (found === undefined) {
      found = routeOf(table, target)
      routed.set(target, found)
    }
    return found
  }

  return {
    answer(incoming, outgoing, fallback) {
      if (table.length === 0 || incoming.method !== 'GET') return undefined
      const found = route(incoming.url ?? '')
      if (found === null) return undefined
      if (incoming.headers['transfer-encoding'] !== undefined || (incoming.headers['content-length'] ?? '0') !== '0') return undefined
      const origin = requestOrigin(incoming)
      if (origin === undefined) return undefined
      const authorization = singleHeader(incoming, 'authorization')
      const botId = singleHeader(incoming, 'x-bot-id')
      if (!bearerToken(authorization) || !botId?.trim()) return undefined
      // Errors inside are answered as the wire error; what could still throw (a logger) is reported, never left unhandled.
      return answerDirect(incoming, outgoing, fallback, found, origin, authorization, botId).catch((error: unknown) => reportServerError(services, error, undefined))
    },
  }

  // The pipeline's steps (http/pipeline/), in the Hono app's order, on node:http.
  async function answerDirect(
    incoming: IncomingMessage,
    outgoing: ServerResponse,
    fallback: () => Promise<void> | void,
    found: Routed,
    origin: string,
    authorization: string | undefined,
    botId: string,
  ): Promise<void> {
    const { requestId, started } = beginRequest()
    const { operation, handler } = found.lane.direct
    // Up to the rate limit nothing is spent or sent: a request the app answers otherwise goes to it whole, once, and
    // the app's own steps answer it (with their status, log line and request id).
    let context: DirectOperationContext<Operation> | undefined
    try {
      const principal = await authenticateCaller(auth, authorization, botId)
      const input = operationInputWithoutBody(operation, found.params, '', (name) => headerValue(incoming, name))
      if (!takeForToken || (await takeForToken(principal.tokenId))) context = { input, principal, services, baseUrl: services.publicUrl ?? origin }
    } catch {
      context = undefined
    }
    if (context === undefined) return fallback()
    const call = context
    let status = 200
    let contentType = 'application/json'
    let text: string
    try {
      text = await answerOperation(operation, () => handler(call), services)
    } catch (error) {
      ;({ status, text } = errorAnswer(error, services, requestId))
      contentType = 'application/json; charset=UTF-8'
    }
    const bytes = Buffer.byteLength(text)
    outgoing.writeHead(status, { 'content-type': contentType, 'content-length': bytes, 'x-request-id': requestId, ...apiAnswerHeaders })
    outgoing.end(text)
    recordRequest(services, {
      method: 'GET',
      path: found.path,
      status,
      elapsedMs: performance.now() - started,
      requestId,
      botId: call.principal.botId,
      operation: operation.name,
      bytesIn: 0,
      bytesOut: bytes,
    })
  }
}
