import postgres from 'postgres'
import { MAX_CONNECTION_LIFETIME_S } from './prepared-texts.js'

/** How many connections each server keeps to PostgreSQL unless told otherwise (decision 0901). */
export const DEFAULT_POOL_SIZE = 10

/** The longest a single statement may run unless told otherwise, in milliseconds (decision 0901). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000

/** Options of {@link connectPostgres}. */
export interface PgConnectOptions {
  /** `postgres://user:password@host:port/database` (any form the `postgres` library accepts). */
  url: string
  /** Connections in the pool (default {@link DEFAULT_POOL_SIZE}). */
  poolSize?: number
  /** `statement_timeout` of every connection, in milliseconds (default {@link DEFAULT_STATEMENT_TIMEOUT_MS}). */
  statementTimeoutMs?: number
  /** The schema every table lives in (default `public`): the connection's `search_path`. */
  schema?: string
}

/** A connection's lifetime in seconds, drawn when it is made: 30 to {@link MAX_CONNECTION_LIFETIME_S}. */
const connectionLifetimeS = () => MAX_CONNECTION_LIFETIME_S * (0.5 + Math.random() / 2)

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/

/**
 * Checks the options of a PostgreSQL backend before anything connects, naming the field, what was expected and
 * what was received.
 *
 * @example
 * ```ts
 * checkConnectOptions({ url: 'postgres://postgres@127.0.0.1:5432/botshelf', poolSize: 0 }) // throws: poolSize ...
 * ```
 */
export function checkConnectOptions(options: PgConnectOptions): void {
  if (typeof options.url !== 'string' || !/^postgres(ql)?:\/\//.test(options.url)) {
    throw new RangeError(`url: expected a postgres:// or postgresql:// URL, received ${describe(options.url)}`)
  }
  if (options.poolSize !== undefined && (!Number.isInteger(options.poolSize) || options.poolSize < 1 || options.poolSize > 1000)) {
    throw new RangeError(`poolSize: expected an integer from 1 to 1000, received ${describe(options.poolSize)}`)
  }
  if (options.statementTimeoutMs !== undefined && (!Number.isInteger(options.statementTimeoutMs) || options.statementTimeoutMs < 0)) {
    throw new RangeError(`statementTimeoutMs: expected a whole number of milliseconds (0 = no limit), received ${describe(options.statementTimeoutMs)}`)
  }
  if (options.schema !== undefined && (typeof options.schema !== 'string' || !SCHEMA_NAME.test(options.schema))) {
    throw new RangeError(`schema: expected a lowercase SQL name (letters, digits, "_", at most 63), received ${describe(options.schema)}`)
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value.startsWith('postgres') ? JSON.stringify(redactUrl(value)) : JSON.stringify(value)
  return value === undefined ? 'nothing' : String(value)
}

/**
 * The URL without its password, for messages and logs.
 *
 * @example
 * ```ts
 * redactUrl('postgres://app:s3cret@db:5432/botshelf') // 'postgres://app:***@db:5432/botshelf'
 * ```
 */
export function redactUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@]+):[^@]*@/, '$1:***@')
}

/**
 * Opens the connection pool of a PostgreSQL backend. Each connection starts with the statement timeout and the
 * schema as its `search_path`; `bigint` values come back as numbers (sizes and counts stay far below 2^53), and
 * server notices are not printed. The library reconnects by itself after a connection is lost.
 *
 * @example
 * ```ts
 * const sql = connectPostgres({ url: 'postgres://postgres@127.0.0.1:5432/botshelf', poolSize: 4 })
 * await sql`SELECT 1`
 * await sql.end()
 * ```
 */
export function connectPostgres(options: PgConnectOptions): postgres.Sql {
  checkConnectOptions(options)
  return postgres(options.url, {
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    // Idle connections go after a minute, so a quiet server does not hold its whole pool on the database.
    idle_timeout: 60,
    // Each connection closes after a random 30 to 60 minutes (the driver's own default, set here so no URL or
    // environment setting lengthens it): the server then drops every statement prepared on it, which bounds the
    // find statements a connection holds (PreparedTexts, decision 0964). The driver takes a function here.
    max_lifetime: connectionLifetimeS as unknown as number,
    connect_timeout: 10,
    onnotice: () => {},
    types: {
      bigint: { to: 20, from: [20], serialize: (value: number) => String(value), parse: (value: string) => Number(value) },
    },
    connection: {
      application_name: 'botshelf',
      statement_timeout: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
      search_path: options.schema ?? 'public',
    },
  })
}
