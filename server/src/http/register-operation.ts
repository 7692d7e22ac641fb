import type { Context, Hono } from 'hono'
import type { z } from 'zod'
import type { Operation } from 'botshelf/api'
import { toReadableIssues } from 'botshelf/api'
import type { AppEnv, AppServices } from './env.js'
import type { Principal } from './principal.js'
import { invalidFromIssues, ServiceError } from './service-error.js'
import { jsonLimitFor, readJsonBody } from './body.js'
import { jsonText } from './json-text.js'
import { publicBaseUrl } from './public-url.js'
import { parseQuery } from './query.js'

type ParamsOf<Op> = Op extends Operation<infer P, z.ZodObject, z.ZodType, z.ZodType> ? z.output<P> : never
type QueryOf<Op> = Op extends Operation<z.ZodObject, infer Q, z.ZodType, z.ZodType> ? z.output<Q> : never
type BodyOf<Op> = Op extends Operation<z.ZodObject, z.ZodObject, infer B, z.ZodType> ? z.output<B> : never
type ResponseOf<Op> = Op extends Operation<z.ZodObject, z.ZodObject, z.ZodType, infer R> ? z.input<R> : never
type HeadersOf<Op> = Op extends Operation<z.ZodObject, z.ZodObject, z.ZodType, z.ZodType, infer H> ? { [P in keyof H]: string | undefined } : Record<string, never>

/** The validated input of an operation, split by where it came from. */
export interface OperationRequest<Op extends Operation> {
  /** Path parameters, percent-decoded once (`some%2Fkey.txt` → `some/key.txt`). */
  params: ParamsOf<Op>
  /** Query string parsed with qs (dot notation), coerced and validated by `operation.query`. */
  query: QueryOf<Op>
  /** JSON body validated by `operation.body` (`{}` when the operation declares none). */
  body: BodyOf<Op>
  /** Header inputs named by `operation.headers` (copyFile's `{ 'x-destination-bot-id': 'x-destination-bot-id' }` gives `headers['x-destination-bot-id']`). */
  headers: HeadersOf<Op>
}

/** What an operation handler receives. */
export interface OperationContext<Op extends Operation> {
  input: OperationRequest<Op>
  principal: Principal
  services: AppServices
  c: Context<AppEnv>
}

/** An operation handler: returns the response object (answered as 200 JSON). */
export type OperationHandler<Op extends Operation> = (context: OperationContext<Op>) => ResponseOf<Op> | Promise<ResponseOf<Op>>

/** Options of `registerOperation`. */
export interface RegisterOptions {
  /**
   * JSON body limit in bytes; default 40 MB under `/v1/tables`, 1 MB elsewhere.
   *
   * @example
   * ```ts
   * registerOperation(router, importRows, handler, { bodyLimit: 10 * 1024 * 1024 })
   * ```
   */
  bodyLimit?: number
}

const operationsByRouter = new WeakMap<Hono<AppEnv>, Operation[]>()

/**
 * The operations registered on a router (read by the OpenAPI generator).
 *
 * @example
 * ```ts
 * registeredOperations(filesRoutes).map((op) => op.name) // ['upsertFile', 'getFile', ...]
 * ```
 */
export function registeredOperations(router: Hono<AppEnv>): ReadonlyArray<Operation> {
  return operationsByRouter.get(router) ?? []
}

/**
 * Converts an operation path template to a Hono route: `/v1/files/{id}` → `/v1/files/:id`.
 *
 * @example
 * ```ts
 * toHonoPath('/v1/files/{idOrKey}/{destinationKey}') // '/v1/files/:idOrKey/:destinationKey'
 * ```
 */
export function toHonoPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1')
}

function validate<S extends z.ZodType>(schema: S, value: unknown, lead: string): z.output<S> {
  const result = schema.safeParse(value)
  if (!result.success) throw invalidFromIssues(lead, toReadableIssues(result.error.issues, value))
  return result.data
}

/**
 * Registers one wire operation on a router: method + path, then for each request parses and validates path
 * params, query (qs + coercion), header inputs and JSON body with the operation's schemas (an
 * `InvalidPayload` naming field, expected and received on failure), calls the handler with the validated
 * input and the caller's principal, and answers 200 JSON. When the app runs with `checkResponses`, the
 * response is validated too (a mismatch is a logged 500). Returns the Hono handler it registered.
 *
 * @example
 * ```ts
 * const router = new Hono<AppEnv>()
 * registerOperation(router, getFile, async ({ input, principal, services, c }) => {
 *   const file = await resolveFile(services.backend.files, principal, input.params.id, 'read')
 *   return { file: toWireFile(file, { signingKey: services.signingKey, base: publicBaseUrl(c), now: services.now(), lifetimes: defaultUrlLifetimes }) }
 * })
 * ```
 */
export function registerOperation<Op extends Operation>(
  router: Hono<AppEnv>,
  operation: Op,
  handler: OperationHandler<Op>,
  options: RegisterOptions = {},
): (c: Context<AppEnv>) => Promise<Response> {
  const list = operationsByRouter.get(router) ?? []
  list.push(operation)
  operationsByRouter.set(router, list)
  const limit = options.bodyLimit ?? jsonLimitFor(operation.path)
  const method = operation.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'

  const route = async (c: Context<AppEnv>): Promise<Response> => {
    c.set('operation', operation.name)
    const principal = c.get('principal')
    if (!principal) throw new ServiceError('Unauthorized', 'This operation requires a bearer token')
    const services = c.get('services')

    const rawParams = c.req.param() as Record<string, string>
    // Parsing the whole URL only when there is a query: most calls have none.
    const url = c.req.url
    const search = url.includes('?') ? new URL(url).search : ''
    const { params, query, headers } = operationInputWithoutBody(operation, rawParams, search, (name) => c.req.header(name))

    let body: unknown = {}
    if (method !== 'get' && operation.body) {
      const raw = await readJsonBody(c.req.raw, limit)
      body = validate(operation.body, raw ?? (method === 'delete' ? {} : raw), 'Invalid request body')
    }

    const input = { params, query, body, headers } as OperationRequest<Op>
    const output = await handler({ input, principal, services, c })
    const text = operationAnswerText(operation, output, services)
    // The length is stated so the request log's metrics count the bytes without streaming the body through a counter.
    return c.body(text, 200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) })
  }
  router.on(operation.method, toHonoPath(operation.path), route)
  return route
}

/**
 * The JSON text of an operation's answer; with the app's `checkResponses`, the answer is first validated against the
 * operation's response schema (a mismatch throws, and is answered as a logged 500).
 *
 * @example
 * ```ts
 * const text = operationAnswerText(getFile, { file }, services)
 * ```
 */
export function operationAnswerText(operation: Operation, output: unknown, services: AppServices): string {
  if (services.checkResponses) {
    const result = operation.response.safeParse(output)
    if (!result.success) {
      const issues = toReadableIssues(result.error.issues, output)
      throw new Error(`Response of ${operation.name} does not match its schema: ${issues.map((i) => i.message).join('; ')}`)
    }
  }
  return jsonText(output)
}

/**
 * The validated input of a request without a body: path parameters already decoded, the query string (`''` for none)
 * and a reader of header values. Throws `InvalidPayload` naming the field, as the route would.
 *
 * @example
 * ```ts
 * const input = operationInputWithoutBody(getFile, { id: 'a.txt' }, '', (name) => incoming.headers[name] as string | undefined)
 * ```
 */
export function operationInputWithoutBody<Op extends Operation>(
  operation: Op,
  rawParams: Readonly<Record<string, string>>,
  search: string,
  header: (name: string) => string | undefined,
): OperationRequest<Op> {
  const params = operation.params ? validate(operation.params, rawParams, 'Invalid path parameters') : {}
  const rawQuery = parseQuery(search, operation.query)
  const query = operation.query ? validate(operation.query, rawQuery, 'Invalid query parameters') : {}
  const headers: Record<string, string | undefined> = {}
  for (const [inputName, headerName] of Object.entries(operation.headers ?? {})) headers[inputName] = header(headerName)
  return { params, query, body: {}, headers } as OperationRequest<Op>
}

/** What a direct operation's handler receives: the request's input, the caller, the services and the public base URL. */
export interface DirectOperationContext<Op extends Operation> {
  input: OperationRequest<Op>
  principal: Principal
  services: AppServices
  /** The base of the absolute URLs the answer hands out (`publicUrl`, else the request's origin), no trailing slash. */
  baseUrl: string
}

/** The handler of a direct operation: no Hono context, so both answer paths can run it. */
export type DirectOperationHandler<Op extends Operation> = (context: DirectOperationContext<Op>) => ResponseOf<Op> | Promise<ResponseOf<Op>>

/** A read registered for both answer paths: the Hono route, and the direct lane of `http/direct-lane.ts`. */
export interface DirectOperation {
  readonly operation: Operation
  readonly handler: DirectOperationHandler<Operation>
  /** The Hono handler registered for it: the lane serves a path only where the router would pick this route. */
  readonly route: (c: Context<AppEnv>) => Promise<Response>
}

const directOperationsByRouter = new WeakMap<Hono<AppEnv>, DirectOperation[]>()

/**
 * Registers a hot read (a `GET` without a body) like {@link registerOperation}, and also for the direct lane, which
 * answers it straight on node:http without the Hono app when the request is plain (decision 1235). The handler gets
 * `baseUrl` instead of the Hono context, so the same code runs on both paths.
 *
 * @example
 * ```ts
 * registerDirectOperation(router, getFile, async ({ input, principal, services, baseUrl }) => {
 *   const file = await resolveFile(services.backend.files, principal, input.params.id, 'read')
 *   return { file: toWireFile(file, { signingKey: services.signingKey, base: baseUrl, now: services.now(), lifetimes: defaultUrlLifetimes }) }
 * })
 * ```
 */
export function registerDirectOperation<Op extends Operation>(
  router: Hono<AppEnv>,
  operation: Op,
  handler: DirectOperationHandler<Op>,
  options: RegisterOptions = {},
): void {
  if (operation.method !== 'GET' || operation.body) throw new TypeError(`registerDirectOperation: ${operation.name} is not a GET without a body`)
  const route = registerOperation(router, operation, ({ input, principal, services, c }) => handler({ input, principal, services, baseUrl: publicBaseUrl(c) }), options)
  const list = directOperationsByRouter.get(router) ?? []
  list.push({ operation, handler: handler as DirectOperationHandler<Operation>, route })
  directOperationsByRouter.set(router, list)
}

/**
 * The direct operations registered on a router (read by the app to build its direct lane).
 *
 * @example
 * ```ts
 * directOperations(filesRoutes).map((direct) => direct.operation.name) // ['getFile']
 * ```
 */
export function directOperations(router: Hono<AppEnv>): ReadonlyArray<DirectOperation> {
  return directOperationsByRouter.get(router) ?? []
}
