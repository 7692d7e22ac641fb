import type { Context, Hono } from 'hono'
import type { z } from 'zod'
import type { Operation } from 'botshelf/api'
import type { AppEnv, AppServices } from './env.js'
import type { Principal } from './principal.js'
import { ServiceError } from './service-error.js'
import { jsonLimitFor, readJsonBody } from './body.js'
import { publicBaseUrl } from './public-url.js'
import { answerOperation } from './pipeline/operation-answer.js'
import { operationInput, type OperationRequest } from './pipeline/operation-input.js'

export { operationAnswerText } from './pipeline/operation-answer.js'
export { operationInputWithoutBody, type OperationRequest } from './pipeline/operation-input.js'

type ResponseOf<Op> = Op extends Operation<z.ZodObject, z.ZodObject, z.ZodType, infer R> ? z.input<R> : never

/** What an operation handler receives. */
export interface OperationContext<Op extends Operation> {
  input: OperationRequest<Op>
  principal: Principal
  services: AppServices
  c: Context<AppEnv>
}

/** An operation handler: returns the response object (answered as 200 JSON). */
export type OperationHandler<Op extends Operation> = (context: OperationContext<Op>) => ResponseOf<Op> | Promise<ResponseOf<Op>>

/** Options of an operation's route (`registerRoute`). */
export interface RegisterOptions {
  /**
   * JSON body limit in bytes; default 40 MB under `/v1/tables`, 1 MB elsewhere.
   *
   * @example
   * ```ts
   * registerRoute(router, { operation: importRows, handle, bodyLimit: 10 * 1024 * 1024 })
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

/**
 * Mounts one wire operation on a router (the part of `registerRoute` for operations): method + path, then for each
 * request the pipeline's input checks, the handler with the validated input and the caller's principal, and its
 * answer as 200 JSON. Returns the Hono handler it mounted.
 *
 * @example
 * ```ts
 * const route = mountOperation(router, getFile, handler)
 * ```
 */
export function mountOperation<Op extends Operation>(
  router: Hono<AppEnv>,
  operation: Op,
  handler: OperationHandler<Op>,
  options: RegisterOptions = {},
): (c: Context<AppEnv>) => Promise<Response> {
  const list = operationsByRouter.get(router) ?? []
  list.push(operation)
  operationsByRouter.set(router, list)
  const limit = options.bodyLimit ?? jsonLimitFor(operation.path)

  const route = async (c: Context<AppEnv>): Promise<Response> => {
    c.set('operation', operation.name)
    const principal = c.get('principal')
    if (!principal) throw new ServiceError('Unauthorized', 'This operation requires a bearer token')
    const services = c.get('services')
    // Parsing the whole URL only when there is a query: most calls have none.
    const url = c.req.url
    const input = await operationInput(operation, {
      params: c.req.param() as Record<string, string>,
      search: url.includes('?') ? new URL(url).search : '',
      header: (name) => c.req.header(name),
      readBody: () => readJsonBody(c.req.raw, limit),
    })
    const text = await answerOperation(operation, () => handler({ input, principal, services, c }), services)
    // The length is stated so the request log's metrics count the bytes without streaming the body through a counter.
    return c.body(text, 200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) })
  }
  router.on(operation.method, toHonoPath(operation.path), route)
  return route
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
 * Mounts a hot read (a `GET` without a body) like {@link mountOperation}, and records it for the direct lane, which
 * answers it straight on node:http without the Hono app when the request is plain (decision 1235). The handler gets
 * `baseUrl` instead of the Hono context, so the same code runs on both paths.
 *
 * @example
 * ```ts
 * mountDirectOperation(router, getFile, handler)
 * ```
 */
export function mountDirectOperation<Op extends Operation>(
  router: Hono<AppEnv>,
  operation: Op,
  handler: DirectOperationHandler<Op>,
  options: RegisterOptions = {},
): (c: Context<AppEnv>) => Promise<Response> {
  if (operation.method !== 'GET' || operation.body) throw new TypeError(`registerRoute: ${operation.name} is not a GET without a body, so it cannot be direct`)
  const route = mountOperation(router, operation, ({ input, principal, services, c }) => handler({ input, principal, services, baseUrl: publicBaseUrl(c) }), options)
  const list = directOperationsByRouter.get(router) ?? []
  list.push({ operation, handler: handler as DirectOperationHandler<Operation>, route })
  directOperationsByRouter.set(router, list)
  return route
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
