import type { ErrorType } from 'botshelf/api'
import { BotshelfError } from 'botshelf/api'

/**
 * An error raised by the tables store (bad schema, bad row, bad query, missing table or row, ...).
 * It carries the wire error `type` so the server answers with the right status, and a stable `code`
 * for programs (`TABLE_NOT_FOUND`, `INVALID_QUERY`, ...); part of the one hierarchy (`BotshelfError`), so the
 * service's error handler answers it like any other, its code in `metadata.code`.
 *
 * @example
 * ```ts
 * throw new TablesStoreError('ResourceNotFound', 'TABLE_NOT_FOUND', 'Table "ordersTable" not found')
 * ```
 */
export class TablesStoreError extends BotshelfError {
  override readonly name: string = 'TablesStoreError'
  declare readonly code: TablesErrorCode

  constructor(type: ErrorType, code: TablesErrorCode, message: string, metadata?: Record<string, unknown>) {
    super(type, code, message, metadata)
  }
}

/** Stable codes of tables store errors. */
export type TablesErrorCode =
  | 'TABLE_NOT_FOUND'
  | 'ROW_NOT_FOUND'
  | 'TABLE_EXISTS'
  | 'TABLE_FROZEN'
  | 'INVALID_SCHEMA'
  | 'INVALID_ROW'
  | 'INVALID_QUERY'
  | 'INVALID_REQUEST'
  | 'KEY_CONFLICT'
  | 'LIMIT_EXCEEDED'
  | 'BREAKING_CHANGE'
  | 'NOT_BUILT'

/**
 * Shorthand for an `InvalidQuery` error naming the offending part of the query.
 *
 * @example
 * ```ts
 * throw invalidQuery('filter.age.$foo: unknown operator "$foo"')
 * ```
 */
export function invalidQuery(message: string): TablesStoreError {
  return new TablesStoreError('InvalidQuery', 'INVALID_QUERY', message)
}

/**
 * Shorthand for an `InvalidJsonSchema` error about a table schema.
 *
 * @example
 * ```ts
 * throw invalidSchema('schema.properties.age.type: expected one of string, number, ..., received "int"')
 * ```
 */
export function invalidSchema(message: string): TablesStoreError {
  return new TablesStoreError('InvalidJsonSchema', 'INVALID_SCHEMA', message)
}

/**
 * The largest integer a query may carry as `offset` or a `$size` operand: PostgreSQL's `integer`, so that both engines
 * answer the same `InvalidQuery` past it instead of one answering 200 and the other 500 (issue 28).
 *
 * @example
 * ```ts
 * if (offset > MAX_QUERY_INTEGER) throw invalidQuery(`offset: expected at most ${MAX_QUERY_INTEGER}, received ${offset}`)
 * ```
 */
export const MAX_QUERY_INTEGER = 2_147_483_647
