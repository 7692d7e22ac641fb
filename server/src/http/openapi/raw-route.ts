
/** A parameter of a raw route (path, query or request header); its schema is a string unless told. */
export interface RawRouteParameter {
  /**
   * Parameter name as sent on the wire.
   *
   * @example
   * ```ts
   * { name: 'token', in: 'query', required: true, description: 'The signed token of the URL.' }
   * ```
   */
  readonly name: string
  /**
   * Where it is sent.
   *
   * @example
   * ```ts
   * { name: 'Range', in: 'header', required: false, description: 'One byte range: `bytes=0-99`.' }
   * ```
   */
  readonly in: 'path' | 'query' | 'header'
  /**
   * Whether the route refuses a request without it.
   *
   * @example
   * ```ts
   * { name: 'fileId', in: 'path', required: true, description: 'The file id.' }
   * ```
   */
  readonly required: boolean
  /**
   * What it means and what the route does with it.
   *
   * @example
   * ```ts
   * { name: 'If-None-Match', in: 'header', required: false, description: 'An ETag; a match answers 304.' }
   * ```
   */
  readonly description: string
  /**
   * JSON Schema of the value; default `{ type: 'string' }`.
   *
   * @example
   * ```ts
   * { name: 'Content-Length', in: 'header', required: false, description: 'Body size.', schema: { type: 'integer', minimum: 0 } }
   * ```
   */
  readonly schema?: Record<string, unknown>
}

/** One documented status of a raw route. */
export interface RawRouteResponse {
  /**
   * When the route answers this status.
   *
   * @example
   * ```ts
   * { description: 'The token is missing, altered or expired.', body: 'error' }
   * ```
   */
  readonly description: string
  /**
   * What the body is: the wire error body (JSON), the file's bytes, an empty JSON object, a JSON value described
   * by `schema`, or nothing.
   *
   * @example
   * ```ts
   * { description: 'The whole content.', body: 'bytes', headers: { ETag: 'The sha256, quoted.' } }
   * ```
   */
  readonly body: 'error' | 'bytes' | 'empty-json' | 'json' | 'none'
  /**
   * JSON Schema of a `json` body.
   *
   * @example
   * ```ts
   * { description: 'Healthy.', body: 'json', schema: { type: 'object', properties: { status: { const: 'ok' } } } }
   * ```
   */
  readonly schema?: Record<string, unknown>
  /**
   * Response headers worth documenting, name → description.
   *
   * @example
   * ```ts
   * { description: 'One range.', body: 'bytes', headers: { 'Content-Range': '`bytes start-end/size`' } }
   * ```
   */
  readonly headers?: Readonly<Record<string, string>>
}

/**
 * The declarative description of a route that is not a wire `Operation` (raw bytes in or out, no bearer
 * token): the OpenAPI generator documents it with `security: []`. `path` uses OpenAPI templates (`{fileId}`);
 * the router registers the same path through `toHonoPath`, so the document and the route cannot drift apart.
 */
export interface RawRoute {
  /**
   * The HTTP methods served. A Hono GET route also answers HEAD (without body), so list both when it does.
   *
   * @example
   * ```ts
   * { methods: ['GET', 'HEAD'], path: '/v1/content/files/{fileId}', ... }
   * ```
   */
  readonly methods: ReadonlyArray<'GET' | 'HEAD' | 'PUT' | 'POST' | 'DELETE'>
  /**
   * OpenAPI path template.
   *
   * @example
   * ```ts
   * { path: '/v1/content/upload/{fileId}', ... }
   * ```
   */
  readonly path: string
  /**
   * Operation id; for several methods the method is appended (`downloadFileContent`, `downloadFileContentHead`).
   *
   * @example
   * ```ts
   * { operationId: 'uploadFileContent', ... }
   * ```
   */
  readonly operationId: string
  /**
   * One-line summary.
   *
   * @example
   * ```ts
   * { summary: "PUT a file's content to its uploadUrl", ... }
   * ```
   */
  readonly summary: string
  /**
   * Longer explanation (authorization, limits).
   *
   * @example
   * ```ts
   * { description: 'Authorized by the signed token alone; no Authorization header.', ... }
   * ```
   */
  readonly description: string
  /**
   * Path, query and header parameters.
   *
   * @example
   * ```ts
   * { parameters: [{ name: 'fileId', in: 'path', required: true, description: 'The file id.' }], ... }
   * ```
   */
  readonly parameters: ReadonlyArray<RawRouteParameter>
  /**
   * A raw request body (any content type), when the route reads one.
   *
   * @example
   * ```ts
   * { requestBody: { description: 'The bytes, exactly the size declared in upsertFile.' }, ... }
   * ```
   */
  readonly requestBody?: {
    readonly description: string
    /** A JSON Schema when the body is JSON (`application/json`); without it, any bytes. */
    readonly schema?: Record<string, unknown>
  }
  /**
   * How the caller authenticates: `none` (default: a signed URL, or nothing) or `bearer` (a token in
   * `Authorization`, like the operations, but routes that name no bot: no `x-bot-id`). A `bearer` route is limited
   * per token, the others per client IP address.
   *
   * @example
   * ```ts
   * { security: 'bearer', ... }
   * ```
   */
  readonly security?: 'none' | 'bearer'
  /**
   * Every status the route can answer, by code.
   *
   * @example
   * ```ts
   * { responses: { 200: { description: 'Stored.', body: 'empty-json' }, 403: { description: 'Bad token.', body: 'error' } }, ... }
   * ```
   */
  readonly responses: Readonly<Record<number, RawRouteResponse>>
}

/** Any router (the app's, the admin routes' own environment): keyed by identity. */
type Router = object

const rawRoutesByRouter = new WeakMap<Router, RawRoute[]>()

/**
 * Records the description of a raw route mounted on `router`, for the OpenAPI document. `registerRoute` calls it;
 * call it yourself only for a route mounted some other way.
 *
 * @example
 * ```ts
 * describeRawRoute(router, uploadContentRoute)
 * ```
 */
export function describeRawRoute(router: Router, route: RawRoute): void {
  const list = rawRoutesByRouter.get(router) ?? []
  list.push(route)
  rawRoutesByRouter.set(router, list)
}

/**
 * The raw routes described on a router (read by the OpenAPI generator).
 *
 * @example
 * ```ts
 * describedRawRoutes(filesContentRoutes()).map((r) => r.path) // ['/v1/content/upload/{fileId}', ...]
 * ```
 */
export function describedRawRoutes(router: Router): ReadonlyArray<RawRoute> {
  return rawRoutesByRouter.get(router) ?? []
}
