import type { z } from 'zod'

/** HTTP methods the wire format uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * One wire operation, described once and used three times: the server validates requests with it, the
 * client builds typed methods from it, and the OpenAPI document is generated from it.
 *
 * The official client takes one flat input object per call; `params`, `query`, `headers` and `body`
 * say which of its keys go where. Path parameters appear in `path` as `{name}`.
 * Query schemas are written with typed values (boolean, number, string[]); the server coerces the
 * strings of the query string to those types before validating.
 */
export interface Operation<
  TParams extends z.ZodObject = z.ZodObject,
  TQuery extends z.ZodObject = z.ZodObject,
  TBody extends z.ZodType = z.ZodType,
  TResponse extends z.ZodType = z.ZodType,
  THeaders extends Readonly<Record<string, string>> = Readonly<Record<string, string>>,
> {
  /** The method name on the client, same as `@botpress/client` (`getFile`, `findTableRows`, ...). */
  readonly name: string
  readonly method: HttpMethod
  /** Path template, `{name}` for path parameters: `/v1/files/{id}`. */
  readonly path: string
  readonly summary: string
  readonly params?: TParams
  readonly query?: TQuery
  /** Headers taken from the input (`x-destination-bot-id` for copyFile), keyed by input property. */
  readonly headers?: THeaders
  readonly body?: TBody
  readonly response: TResponse
}

/**
 * Declares an operation while keeping its exact schema types (so client methods are inferred).
 *
 * @example
 * ```ts
 * export const getFile = defineOperation({
 *   name: 'getFile', method: 'GET', path: '/v1/files/{id}', summary: 'Get a file by id or key',
 *   params: z.object({ id: z.string() }),
 *   response: z.object({ file: FileSchema }),
 * })
 * ```
 */
export function defineOperation<
  TParams extends z.ZodObject = z.ZodObject<{}>,
  TQuery extends z.ZodObject = z.ZodObject<{}>,
  TBody extends z.ZodType = z.ZodObject<{}>,
  TResponse extends z.ZodType = z.ZodType,
  const THeaders extends Readonly<Record<string, string>> = {},
>(operation: Operation<TParams, TQuery, TBody, TResponse, THeaders>): Operation<TParams, TQuery, TBody, TResponse, THeaders> {
  return operation
}
