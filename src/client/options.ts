import { InvalidInputError } from './errors/client-errors.js'
import { readEnv } from './env.js'

/**
 * The address `botshelf serve` listens on by default; the client talks to it when no `apiUrl` is given.
 *
 * @example
 * ```ts
 * new Client({ token }).config.apiUrl === DEFAULT_API_URL // true when BP_API_URL is not set
 * ```
 */
export const DEFAULT_API_URL = 'http://127.0.0.1:3000'

/**
 * Default time a call may take, in milliseconds, before it fails with a `TimeoutError`.
 *
 * @example
 * ```ts
 * new Client({ timeout: DEFAULT_TIMEOUT_MS * 2 })
 * ```
 */
export const DEFAULT_TIMEOUT_MS = 60_000

/**
 * A `fetch`-compatible function: `globalThis.fetch`, or an in-process app's handler (`app.fetch`).
 *
 * @example
 * ```ts
 * const viaApp: FetchLike = (request) => app.fetch(request)
 * ```
 */
export type FetchLike = (request: Request) => Response | Promise<Response>

/**
 * Opt-in retries. Only idempotent methods (GET, HEAD, PUT, DELETE) are retried, and only after a
 * network error, a 429 or a 5xx. A `Retry-After` header sets the wait; otherwise the wait doubles
 * from `minDelayMs` up to `maxDelayMs`.
 *
 * @example
 * ```ts
 * new Client({ retry: { retries: 3, minDelayMs: 100 } })
 * ```
 */
export interface RetryOptions {
  /** How many times a failed call is tried again (0 disables retries). Default 3 once `retry` is given, like axios-retry. @example `3` */
  retries?: number
  /** First wait in milliseconds; doubles on every attempt. Default 200. @example `100` */
  minDelayMs?: number
  /** Longest wait in milliseconds, `Retry-After` included. Default 10 000. @example `5_000` */
  maxDelayMs?: number
}

/**
 * Options of `new Client(...)`. Every option is optional; `token`, `botId`, `apiUrl` and
 * `integrationId` fall back to `BP_TOKEN`, `BP_BOT_ID`, `BP_API_URL` and `BP_INTEGRATION_ID`.
 *
 * @example
 * ```ts
 * const client = new Client({ token: 'bp_pat_abc', botId: 'my-bot', apiUrl: 'http://127.0.0.1:3000' })
 * ```
 */
export interface ClientOptions {
  /** Token sent as `Authorization: bearer <token>`. Env: `BP_TOKEN`. @example `'bp_pat_abc'` */
  token?: string
  /** Bot id sent as `x-bot-id`. Env: `BP_BOT_ID`. @example `'my-bot'` */
  botId?: string
  /** Base URL of the service. Env: `BP_API_URL`. Default `http://127.0.0.1:3000`. @example `'https://files.example.com'` */
  apiUrl?: string
  /** Integration id sent as `x-integration-id`. Env: `BP_INTEGRATION_ID`. @example `'intg_123'` */
  integrationId?: string
  /** Integration alias sent as `x-integration-alias` (no env fallback, like the official client). @example `'my-slack'` */
  integrationAlias?: string
  /** Workspace id sent as `x-workspace-id` (botshelf ignores it; accepted for code written for the official client). Env: `BP_WORKSPACE_ID`. @example `'wkspace_1'` */
  workspaceId?: string
  /** Log one line per request and response with `console.debug`. Default false. @example `true` */
  debug?: boolean
  /** Extra headers sent on every call, applied last (they override the defaults); an array value is joined with `, `. @example `{ 'x-user-id': 'u1' }` */
  headers?: Record<string, string | string[]>
  /** Milliseconds before a call fails with `TimeoutError`. Default 60 000. @example `5_000` */
  timeout?: number
  /** Opt-in retries of idempotent calls. Off by default. @example `{ retries: 3 }` */
  retry?: RetryOptions
  /**
   * The function used to send requests. Default `globalThis.fetch`. Pass an app's fetch handler to
   * talk to an in-process server with no socket.
   * @example `fetch: (request) => app.fetch(request)`
   */
  fetch?: FetchLike
}

/**
 * The options of a client once defaults and environment variables are applied (`client.config`).
 *
 * @example
 * ```ts
 * const { apiUrl, headers, timeout } = new Client({ token: 't', botId: 'b' }).config
 * // headers: { authorization: 'bearer t', 'x-bot-id': 'b' }
 * ```
 */
export interface ResolvedClientConfig {
  readonly apiUrl: string
  readonly token: string | undefined
  readonly botId: string | undefined
  readonly integrationId: string | undefined
  readonly integrationAlias: string | undefined
  readonly workspaceId: string | undefined
  readonly debug: boolean
  /**
   * Every header sent on every call: `authorization`, `x-bot-id`, `x-integration-id`,
   * `x-integration-alias`, `x-workspace-id` when set, then the custom `headers` (which win). Names are lower case.
   */
  readonly headers: Readonly<Record<string, string>>
  readonly timeout: number
  readonly retry: Required<RetryOptions>
  readonly fetch: FetchLike
}

/**
 * The `fetch` of a client given none: the runtime's global `fetch`. The transport recognizes it, and under Node
 * sends JSON calls through `node:http` instead (decision 1203); a `fetch` passed in options is always used as is.
 *
 * @example
 * ```ts
 * new Client({}).config.fetch === defaultFetch // true
 * ```
 */
export const defaultFetch: FetchLike = (request) => {
  if (typeof globalThis.fetch !== 'function') {
    throw new TypeError('fetch: no global fetch in this runtime; pass the `fetch` option')
  }
  return globalThis.fetch(request)
}

/**
 * Applies environment fallbacks and defaults to client options.
 *
 * @example
 * ```ts
 * resolveClientConfig({ token: 't' }).apiUrl // 'http://127.0.0.1:3000' unless BP_API_URL is set
 * ```
 */
export function resolveClientConfig(options: ClientOptions = {}): ResolvedClientConfig {
  const apiUrl = (options.apiUrl ?? readEnv('BP_API_URL') ?? DEFAULT_API_URL).replace(/\/+$/, '')
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS
  if (!Number.isFinite(timeout) || timeout <= 0) {
    throw new TypeError(`timeout: expected a positive number of milliseconds, received ${String(timeout)}`)
  }
  const retries = options.retry === undefined ? 0 : (options.retry.retries ?? 3)
  if (!Number.isInteger(retries) || retries < 0) {
    throw new TypeError(`retry.retries: expected a non-negative integer, received ${String(retries)}`)
  }
  const fetchFn: FetchLike = options.fetch ?? defaultFetch
  const token = options.token ?? readEnv('BP_TOKEN')
  const botId = options.botId ?? readEnv('BP_BOT_ID')
  const integrationId = options.integrationId ?? readEnv('BP_INTEGRATION_ID')
  const integrationAlias = options.integrationAlias
  const workspaceId = options.workspaceId ?? readEnv('BP_WORKSPACE_ID')
  return {
    apiUrl,
    token,
    botId,
    integrationId,
    integrationAlias,
    workspaceId,
    debug: options.debug === true,
    headers: defaultHeaders({ token, botId, integrationId, integrationAlias, workspaceId, custom: options.headers }),
    timeout,
    retry: {
      retries,
      minDelayMs: options.retry?.minDelayMs ?? 200,
      maxDelayMs: options.retry?.maxDelayMs ?? 10_000,
    },
    fetch: fetchFn,
  }
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
// Line breaks and NUL would let a value inject headers; fetch refuses them with an opaque TypeError.
const FORBIDDEN_IN_HEADER = /[\r\n\0]/

/** Checks an option sent as a header now, so a bad value (often a stray newline from a shell variable) is named. */
function headerValue(option: string, value: string): string {
  if (FORBIDDEN_IN_HEADER.test(value)) {
    throw new InvalidInputError(`${option}: expected a value without line breaks or NUL characters (it is sent as a header), received ${JSON.stringify(value)}`)
  }
  return value
}

function defaultHeaders(input: {
  token: string | undefined
  botId: string | undefined
  integrationId: string | undefined
  integrationAlias: string | undefined
  workspaceId: string | undefined
  custom: Record<string, string | string[]> | undefined
}): Record<string, string> {
  const headers: Record<string, string> = {}
  // The public docs write the scheme `bearer`; servers match it case-insensitively (docs/wire-format.md §1).
  if (input.token) headers['authorization'] = `bearer ${headerValue('token', input.token)}`
  if (input.botId) headers['x-bot-id'] = headerValue('botId', input.botId)
  if (input.integrationId) headers['x-integration-id'] = headerValue('integrationId', input.integrationId)
  if (input.integrationAlias) headers['x-integration-alias'] = headerValue('integrationAlias', input.integrationAlias)
  if (input.workspaceId) headers['x-workspace-id'] = headerValue('workspaceId', input.workspaceId)
  for (const [name, value] of Object.entries(input.custom ?? {})) {
    if (!HEADER_NAME.test(name)) {
      throw new InvalidInputError(`headers: expected header names of letters, digits and !#$%&'*+-.^_\`|~, received ${JSON.stringify(name)}`)
    }
    if (typeof value === 'string') headers[name.toLowerCase()] = headerValue(`headers.${name}`, value)
    else if (Array.isArray(value)) headers[name.toLowerCase()] = headerValue(`headers.${name}`, value.join(', '))
  }
  return headers
}
