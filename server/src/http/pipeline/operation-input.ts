import type { z } from 'zod'
import type { Operation } from 'botshelf/api'
import { toReadableIssues } from 'botshelf/api'
import { parseQuery } from '../query.js'
import { invalidFromIssues } from '../service-error.js'

type ParamsOf<Op> = Op extends Operation<infer P, z.ZodObject, z.ZodType, z.ZodType> ? z.output<P> : never
type QueryOf<Op> = Op extends Operation<z.ZodObject, infer Q, z.ZodType, z.ZodType> ? z.output<Q> : never
type BodyOf<Op> = Op extends Operation<z.ZodObject, z.ZodObject, infer B, z.ZodType> ? z.output<B> : never
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

/** Where a request's input comes from, whichever path received it. */
export interface InputSource {
  /** Path parameters, already percent-decoded. */
  readonly params: Readonly<Record<string, string>>
  /** The query string with its `?`, `''` for none. */
  readonly search: string
  /** Reads a header value (repeated values joined by `, `). */
  readonly header: (name: string) => string | undefined
  /** Reads the JSON body (`undefined` when empty); absent for a request without a body. */
  readonly readBody?: () => Promise<unknown>
}

function validate<S extends z.ZodType>(schema: S, value: unknown, lead: string): z.output<S> {
  const result = schema.safeParse(value)
  if (!result.success) throw invalidFromIssues(lead, toReadableIssues(result.error.issues, value))
  return result.data
}

/**
 * Step 4 of the request pipeline, the input checks: path parameters, query (qs + coercion), header inputs and JSON
 * body, each validated by the operation's schemas. Throws `InvalidPayload` naming field, expected and received.
 *
 * @example
 * ```ts
 * const input = await operationInput(getFile, { params: { id: 'a.txt' }, search: '', header: (name) => headers.get(name) ?? undefined })
 * ```
 */
export async function operationInput<Op extends Operation>(operation: Op, source: InputSource): Promise<OperationRequest<Op>> {
  const input = operationInputWithoutBody(operation, source.params, source.search, source.header)
  if (operation.method !== 'GET' && operation.body && source.readBody) {
    const raw = await source.readBody()
    input.body = validate(operation.body, raw ?? (operation.method === 'DELETE' ? {} : raw), 'Invalid request body') as OperationRequest<Op>['body']
  }
  return input
}

/**
 * The input checks of a request without a body, synchronous: path parameters already decoded, the query string
 * (`''` for none) and a reader of header values. Throws `InvalidPayload` naming the field.
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
