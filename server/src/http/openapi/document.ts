import { z } from 'zod'
import { ErrorBodySchema } from 'botshelf/api'
import type { Operation } from 'botshelf/api'
import type { RawRoute, RawRouteResponse } from './raw-route.js'

/** JSON Schema as produced by `z.toJSONSchema`. */
type JsonSchema = Record<string, unknown>

/** Options of `buildOpenApiDocument`. */
export interface OpenApiOptions {
  /** `info.title`; default `botshelf`. Example: `title: 'Support bot storage'`. */
  title?: string
  /** `info.version`; default the package version given by the caller, else `0.0.0`. Example: `version: '1.2.0'`. */
  version?: string
  /** `servers[0].url`, when known (the public URL or the request's origin). Example: `serverUrl: 'https://files.example.com'`. */
  serverUrl?: string
  /**
   * Routes that are not wire operations (signed content URLs: raw bytes, no bearer token), documented from
   * their `RawRoute` descriptions with `security: []`.
   *
   * @example
   * ```ts
   * buildOpenApiDocument(operations, { rawRoutes: describedRawRoutes(filesContentRoutes()) })
   * ```
   */
  rawRoutes?: ReadonlyArray<RawRoute>
}

function rawResponse(response: RawRouteResponse, method: string): Record<string, unknown> {
  const headers = Object.fromEntries(
    Object.entries(response.headers ?? {}).map(([name, description]) => [name, { description, schema: { type: 'string' } }]),
  )
  const body = method === 'HEAD' ? 'none' : response.body
  const content =
    body === 'error'
      ? { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } }
      : body === 'bytes'
        ? { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } }
        : body === 'empty-json'
          ? { 'application/json': { schema: { type: 'object', additionalProperties: false } } }
          : body === 'json'
            ? { 'application/json': { schema: response.schema ?? {} } }
            : undefined
  return {
    description: method === 'HEAD' && response.body !== 'none' ? `${response.description} (HEAD: headers only, no body)` : response.description,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(content ? { content } : {}),
  }
}

/**
 * What every route without a token may answer besides its own statuses: the per-IP rate limit (decision 0702).
 */
const rateLimitedResponse: RawRouteResponse = {
  description: '`RateLimited`: too many requests from this IP address (routes without a token are limited per address).',
  body: 'error',
  headers: { 'Retry-After': 'Seconds to wait before the bucket has a request again (a whole number, at least 1).' },
}

/** What every route with a token may answer: the per-token rate limit. */
const tokenRateLimitedResponse: RawRouteResponse = {
  description: '`RateLimited`: too many requests with this token.',
  body: 'error',
  headers: rateLimitedResponse.headers!,
}

function rawRouteItem(route: RawRoute, method: string): Record<string, unknown> {
  const responses: Record<string, unknown> = {}
  const bearer = route.security === 'bearer'
  for (const [status, response] of Object.entries({ ...route.responses, 429: route.responses[429] ?? (bearer ? tokenRateLimitedResponse : rateLimitedResponse) })) {
    responses[status] = rawResponse(response, method)
  }
  return {
    operationId: route.methods.length > 1 && method !== route.methods[0] ? `${route.operationId}${method[0]}${method.slice(1).toLowerCase()}` : route.operationId,
    summary: route.summary,
    description: route.description,
    security: bearer ? [{ bearer: [] }] : [],
    parameters: route.parameters.map((p) => ({
      name: p.name,
      in: p.in,
      required: p.required,
      description: p.description,
      schema: p.schema ?? { type: 'string' },
    })),
    ...(route.requestBody && method !== 'GET' && method !== 'HEAD'
      ? {
          requestBody: {
            required: true,
            description: route.requestBody.description,
            content: route.requestBody.schema
              ? { 'application/json': { schema: route.requestBody.schema } }
              : { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
          },
        }
      : {}),
    responses,
  }
}

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  try {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema
    delete json.$schema
    return json
  } catch (error) {
    return { description: `Schema not representable in JSON Schema: ${error instanceof Error ? error.message : String(error)}` }
  }
}

function shapeOf(schema: z.ZodObject | undefined): Record<string, z.ZodType> {
  return (schema?.shape ?? {}) as Record<string, z.ZodType>
}

function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success
}

/**
 * Builds an OpenAPI 3.1 document from wire operations: one path item per operation, with path, query and
 * header parameters, the JSON request body, the 200 response and the wire error body, all converted from
 * the same zod schemas the server validates with (`z.toJSONSchema`); plus the raw routes of `options.rawRoutes`
 * (signed content URLs) with their own parameters, statuses and `security: []`.
 *
 * @example
 * ```ts
 * const doc = buildOpenApiDocument([getFileOperation, listFilesOperation], { version: '0.1.0' })
 * doc.paths['/v1/files/{id}'].get.operationId // 'getFile'
 * ```
 */
export function buildOpenApiDocument(operations: ReadonlyArray<Operation>, options: OpenApiOptions = {}): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const operation of operations) {
    const parameters: unknown[] = []
    for (const [name, schema] of Object.entries(shapeOf(operation.params))) {
      parameters.push({ name, in: 'path', required: true, schema: toSchema(schema, 'input'), description: 'Percent-encoded; `%2F` stands for `/`.' })
    }
    for (const [name, schema] of Object.entries(shapeOf(operation.query))) {
      const json = toSchema(schema, 'input')
      const isObject = json.type === 'object' || json.additionalProperties !== undefined || json.anyOf !== undefined
      parameters.push({
        name,
        in: 'query',
        required: !isOptional(schema),
        schema: json,
        ...(json.type === 'array' ? { style: 'form', explode: true } : {}),
        ...(isObject ? { description: 'Objects use dot notation with repeated keys (`tags.k=a&tags.k=b`), or URL-encoded JSON.' } : {}),
      })
    }
    parameters.push({ name: 'x-bot-id', in: 'header', required: true, schema: { type: 'string' }, description: 'The bot the call acts for.' })
    for (const header of Object.values(operation.headers ?? {})) {
      parameters.push({ name: header, in: 'header', required: false, schema: { type: 'string' } })
    }
    const item: Record<string, unknown> = {
      operationId: operation.name,
      summary: operation.summary,
      parameters,
      responses: {
        '200': { description: 'Success', content: { 'application/json': { schema: toSchema(operation.response, 'output') } } },
        default: { description: 'Error (HTTP status equals `code`)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    }
    if (operation.body && operation.method !== 'GET') {
      item.requestBody = { required: true, content: { 'application/json': { schema: toSchema(operation.body, 'input') } } }
    }
    const path = (paths[operation.path] ??= {})
    path[operation.method.toLowerCase()] = item
  }
  for (const route of options.rawRoutes ?? []) {
    const path = (paths[route.path] ??= {})
    for (const method of route.methods) path[method.toLowerCase()] = rawRouteItem(route, method)
  }
  return {
    openapi: '3.1.0',
    info: { title: options.title ?? 'botshelf', version: options.version ?? '0.0.0', description: 'Files and Tables API, wire-compatible with @botpress/client.' },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A botshelf token (`bs_...`); scheme matched case-insensitively.' } },
      schemas: { Error: toSchema(ErrorBodySchema, 'output') },
    },
  }
}
