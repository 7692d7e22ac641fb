import type { Context, Env, Handler, Hono, MiddlewareHandler } from 'hono'
import type { Operation } from 'botshelf/api'
import type { AppEnv } from './env.js'
import { describeRawRoute, type RawRoute } from './openapi/raw-route.js'
import {
  mountDirectOperation,
  mountOperation,
  toHonoPath,
  type DirectOperationHandler,
  type OperationHandler,
  type RegisterOptions,
} from './register-operation.js'

/** A wire operation: its schemas and name are its OpenAPI documentation; answered through the request pipeline. */
export interface OperationRoute<Op extends Operation> extends RegisterOptions {
  /**
   * The operation (method, path, schemas) from `botshelf/api`.
   *
   * @example
   * ```ts
   * registerRoute(router, { operation: listFiles, handle: async ({ input }) => ({ files: [], meta: {} }) })
   * ```
   */
  readonly operation: Op
  /**
   * Not a hot read: answered by the Hono app only.
   *
   * @example
   * ```ts
   * registerRoute(router, { operation: deleteFile, direct: false, handle: async () => ({}) })
   * ```
   */
  readonly direct?: false
  /**
   * The handler: gets the validated input, the caller, the services and the Hono context.
   *
   * @example
   * ```ts
   * registerRoute(router, { operation: deleteFile, handle: async ({ input, principal, services }) => ({}) })
   * ```
   */
  readonly handle: OperationHandler<Op>
}

/** A hot read (a `GET` without a body) that the direct lane may also answer on node:http (decision 1235). */
export interface DirectOperationRoute<Op extends Operation> extends RegisterOptions {
  /**
   * The operation, a `GET` without a body.
   *
   * @example
   * ```ts
   * registerRoute(router, { operation: getFile, direct: true, handle: async ({ baseUrl }) => ({ file }) })
   * ```
   */
  readonly operation: Op
  /**
   * Marks the route for the direct lane.
   *
   * @example
   * ```ts
   * registerRoute(router, { operation: getFile, direct: true, handle })
   * ```
   */
  readonly direct: true
  /**
   * The handler, without the Hono context (both answer paths run it): `baseUrl` is the base of the URLs it hands out.
   *
   * @example
   * ```ts
   * registerRoute(router, { operation: getFile, direct: true, handle: async ({ input, principal, services, baseUrl }) => ({ file }) })
   * ```
   */
  readonly handle: DirectOperationHandler<Op>
}

/** A route that is not a wire operation (raw bytes, no bot, static files), declared with its OpenAPI description. */
export interface RawRouteDeclaration<E extends Env = AppEnv> {
  /**
   * Its OpenAPI description; the route is mounted on the description's methods and path (`HEAD` is served by `GET`).
   *
   * @example
   * ```ts
   * registerRoute(router, { docs: { methods: ['GET', 'HEAD'], path: '/health', operationId: 'getHealth', summary: 'Probe', description: '', parameters: [], responses: {} }, handle: (c) => c.json({ status: 'ok' }) })
   * ```
   */
  readonly docs: RawRoute
  /**
   * Middlewares run before the handler on this route alone (its authentication, its rate limit).
   *
   * @example
   * ```ts
   * registerRoute(router, { docs: whoamiDocs, guards: [tokenAuth(auth), byToken], handle })
   * ```
   */
  readonly guards?: ReadonlyArray<MiddlewareHandler<E>>
  /**
   * The Hono handler.
   *
   * @example
   * ```ts
   * registerRoute(router, { docs: healthDocs, handle: (c) => c.json({ status: 'ok' }) })
   * ```
   */
  readonly handle: Handler<E>
}

/** The Hono handler mounted for an operation (the direct lane matches its requests by it). */
export type MountedOperation = (c: Context<AppEnv>) => Promise<Response>

/** Any route of the service, as `registerRoute` takes it. */
export type RouteDeclaration<Op extends Operation = Operation, E extends Env = AppEnv> = OperationRoute<Op> | DirectOperationRoute<Op> | RawRouteDeclaration<E>

/**
 * The one way to add a route to a router: a wire operation (`{ operation, handle }`), a hot read the direct lane may
 * answer too (`{ operation, direct: true, handle }`), or a raw route (`{ docs, guards?, handle }`). The declaration
 * carries the route's OpenAPI documentation (an operation's schemas, a raw route's description), so the document
 * (`GET /v1/openapi.json`) lists every route registered here and the two cannot drift apart.
 *
 * @example
 * ```ts
 * registerRoute(router, { operation: listFiles, handle: async ({ input, principal, services }) => listFilesAnswer(input, principal, services) })
 * registerRoute(router, { operation: getFile, direct: true, handle: async ({ input, principal, services, baseUrl }) => getFileAnswer(input, principal, services, baseUrl) })
 * registerRoute(router, { docs: healthRoute, handle: (c) => c.json({ status: 'ok' }) })
 * ```
 */
export function registerRoute<Op extends Operation>(router: Hono<AppEnv>, route: OperationRoute<Op> | DirectOperationRoute<Op>): MountedOperation
export function registerRoute<E extends Env>(router: Hono<E>, route: RawRouteDeclaration<E>): void
export function registerRoute(router: Hono<AppEnv>, route: RouteDeclaration): MountedOperation | void {
  if ('docs' in route) {
    describeRawRoute(router, route.docs)
    // Hono answers HEAD with the GET route (without its body).
    const methods = route.docs.methods.filter((method) => method !== 'HEAD' || !route.docs.methods.includes('GET'))
    const on = router.on.bind(router) as (methods: string[], path: string, ...handlers: Array<Handler | MiddlewareHandler>) => unknown
    on(methods, toHonoPath(route.docs.path), ...((route.guards ?? []) as MiddlewareHandler[]), route.handle as Handler)
    return
  }
  const options = route.bodyLimit !== undefined ? { bodyLimit: route.bodyLimit } : {}
  if (route.direct === true) return mountDirectOperation(router, route.operation, route.handle, options)
  return mountOperation(router, route.operation, route.handle, options)
}

/**
 * Shorthand of {@link registerRoute} for a wire operation: `registerRoute(router, { operation, handle, ...options })`.
 *
 * @example
 * ```ts
 * registerOperation(router, getFile, async ({ input, principal, services, c }) => ({ file: await wireFile(input, principal, services, c) }))
 * ```
 */
export function registerOperation<Op extends Operation>(
  router: Hono<AppEnv>,
  operation: Op,
  handler: OperationHandler<Op>,
  options: RegisterOptions = {},
): MountedOperation {
  return registerRoute(router, { operation, handle: handler, ...options })
}

/**
 * Shorthand of {@link registerRoute} for a hot read: `registerRoute(router, { operation, direct: true, handle, ...options })`.
 *
 * @example
 * ```ts
 * registerDirectOperation(router, getFile, async ({ input, principal, services, baseUrl }) => ({ file: await wireFile(input, principal, services, baseUrl) }))
 * ```
 */
export function registerDirectOperation<Op extends Operation>(
  router: Hono<AppEnv>,
  operation: Op,
  handler: DirectOperationHandler<Op>,
  options: RegisterOptions = {},
): void {
  registerRoute(router, { operation, direct: true, handle: handler, ...options })
}
