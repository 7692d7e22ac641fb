import type { HttpMethod, Operation } from '../../api/operation.js'
import { InvalidInputError } from '../errors/client-errors.js'
import { schemaKeys } from './schema-keys.js'

/** An HTTP request described before it is sent: relative path (params filled in), query, headers, body. */
export interface RequestPlan {
  method: HttpMethod
  /** Path with path parameters encoded and filled in, no query string: `/v1/files/a%2Fb.txt`. */
  path: string
  query: Record<string, unknown>
  headers: Record<string, string>
  /** JSON body, `undefined` for GET. */
  body: Record<string, unknown> | undefined
}

const methodsWithBody: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Where each input key of an operation goes, computed once per operation. */
interface InputRouting {
  params: Set<string>
  query: Set<string>
  headers: Readonly<Record<string, string>>
  /** `undefined` when the body schema has no fixed keys: every remaining key goes to the body. */
  body: Set<string> | undefined
}

const routingCache = new WeakMap<Operation, InputRouting>()

function routingOf(operation: Operation): InputRouting {
  const cached = routingCache.get(operation)
  if (cached) return cached
  const pathParams = [...operation.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string)
  const routing: InputRouting = {
    params: new Set([...(schemaKeys(operation.params) ?? []), ...pathParams]),
    query: schemaKeys(operation.query) ?? new Set(),
    headers: operation.headers ?? {},
    body: operation.body === undefined ? new Set() : schemaKeys(operation.body),
  }
  routingCache.set(operation, routing)
  return routing
}

/**
 * Splits the flat input of a call into path parameters, query, headers and body, by the keys the
 * operation's schemas declare (the way `@botpress/client`'s generated code picks its fields). Keys
 * no schema declares are dropped, like the official client, except when the body schema has no
 * fixed keys, in which case they go to the body. DELETE, POST, PUT and PATCH always send a JSON
 * body (`{}` when empty).
 *
 * @example
 * ```ts
 * planRequest(getFile, { id: 'a/b.txt' }).path // '/v1/files/a%2Fb.txt'
 * planRequest(copyFile, { idOrKey: 'a', destinationKey: 'b', overwrite: true, 'x-destination-bot-id': 'bot2' })
 * // { path: '/v1/files/a/b', headers: { 'x-destination-bot-id': 'bot2' }, body: { overwrite: true }, ... }
 * ```
 */
export function planRequest(operation: Operation, input: object | undefined): RequestPlan {
  const values = (input ?? {}) as Record<string, unknown>
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    throw new InvalidInputError(`input: expected an object, received ${Array.isArray(values) ? 'array' : typeof values}`)
  }
  const routing = routingOf(operation)
  const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = values[name]
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new InvalidInputError(
        `${name}: expected a string, received ${value === undefined ? 'undefined' : value === null ? 'null' : typeof value}`,
      )
    }
    return encodeURIComponent(String(value))
  })
  const query: Record<string, unknown> = {}
  const headers: Record<string, string> = {}
  const body: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || routing.params.has(key)) continue
    const headerName = routing.headers[key]
    if (headerName !== undefined) {
      headers[headerName] = String(value)
    } else if (routing.query.has(key)) {
      query[key] = value
    } else if (routing.body === undefined || routing.body.has(key)) {
      body[key] = value
    }
  }
  return {
    method: operation.method,
    path,
    query,
    headers,
    body: methodsWithBody.has(operation.method) ? body : undefined,
  }
}
