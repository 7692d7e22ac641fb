import { errorFromResponseBody } from '../errors/error-from.js'
import { AbortError, InvalidInputError, InvalidResponseError, NetworkError } from '../errors/client-errors.js'
import { defaultFetch, type ResolvedClientConfig } from '../options.js'
import { abortableBody, AttemptSignal, sleep } from './abort.js'
import type { CallOptions } from './call-options.js'
import { loadNodeJsonExchange, nodeJsonExchange, type JsonExchange } from './node-json-exchange.js'
import { encodeQuery } from './query-string.js'
import type { RequestPlan } from './request-plan.js'
import { parseRetryAfter, retryDelay } from './retry-delay.js'

const idempotentMethods: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'])

/** What the transport reads of an answer: a `Response`, or the buffered answer of the Node exchange. */
export interface ResponseLike {
  readonly ok: boolean
  readonly status: number
  readonly url: string
  readonly headers: { get(name: string): string | null }
  readonly body: { cancel(): Promise<void> } | null
  text(): Promise<string>
}

/** What `Transport.send` needs to make one attempt and read its answer. */
export interface SendRequest<T, R extends ResponseLike = Response> {
  method: string
  url: string
  /** Builds a fresh request for each attempt, bound to that attempt's signal; sent with the client's `fetch`. */
  build?: (signal: AbortSignal) => Request
  /** Instead of `build`: makes one attempt itself under that attempt's signal (the Node JSON exchange). */
  exchange?: (signal: AbortSignal) => Promise<R>
  /** Reads a 2xx response. Runs inside the attempt's time limit. */
  read: (response: R) => Promise<T>
  /** Whether this request may be retried (idempotent method and a replayable body). */
  retryable: boolean
  /**
   * Whether the body can be sent again (a string, not a one-shot stream). A 429 means the server refused the
   * request before acting on it, so a replayable request is retried on 429 even when its method is not idempotent.
   */
  replayableBody?: boolean
  /** Stop the time limit once the headers are in, and leave the body stream to the caller. */
  streamBody?: boolean
}

/**
 * Sends requests with the client's policies: time limit per attempt, caller's abort signal, opt-in
 * retries of idempotent requests (network errors, 429, 5xx; `Retry-After` honoured) and of any request answered
 * 429 (refused before it was acted on), and errors
 * turned into `ApiError` subclasses (answers) or client errors (no usable answer).
 */
export class Transport {
  public constructor(private readonly config: ResolvedClientConfig) {}

  /**
   * Sends one operation request and returns its parsed JSON body.
   *
   * @example
   * ```ts
   * await transport.requestJson(planRequest(getFile, { id: 'a.txt' }), { signal })
   * ```
   */
  public requestJson(plan: RequestPlan, options: CallOptions = {}): Promise<unknown> {
    if (this.config.fetch === defaultFetch) {
      // No `fetch` of the caller's: under Node, JSON calls go through node:http (loaded once, on the first call).
      const exchange = nodeJsonExchange()
      if (exchange === undefined) return loadNodeJsonExchange().then(() => this.requestJson(plan, options))
      if (exchange !== null) return this.requestJsonThrough(exchange, plan, options)
    }
    const queryString = encodeQuery(plan.query)
    const url = `${this.config.apiUrl}${plan.path}${queryString ? `?${queryString}` : ''}`
    const headers = new Headers({ accept: 'application/json' })
    const bodyText = plan.body === undefined ? undefined : JSON.stringify(plan.body)
    if (bodyText !== undefined) headers.set('content-type', 'application/json')
    for (const [name, value] of Object.entries(plan.headers)) headers.set(name, value)
    for (const [name, value] of Object.entries(this.config.headers)) headers.set(name, value)
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value)
    return this.send(
      {
        method: plan.method,
        url,
        retryable: idempotentMethods.has(plan.method),
        replayableBody: true,
        build: (signal) => new Request(url, { method: plan.method, headers, body: bodyText ?? null, signal }),
        read: (response) => readJson(response),
      },
      options,
    )
  }

  /** `requestJson` over an exchange: the same headers, in lower case, in a plain object. */
  private requestJsonThrough(exchange: JsonExchange, plan: RequestPlan, options: CallOptions): Promise<unknown> {
    const queryString = encodeQuery(plan.query)
    const url = `${this.config.apiUrl}${plan.path}${queryString ? `?${queryString}` : ''}`
    const body = plan.body === undefined ? undefined : JSON.stringify(plan.body)
    const headers: Record<string, string> = { accept: 'application/json' }
    if (body !== undefined) headers['content-type'] = 'application/json'
    for (const name of Object.keys(plan.headers)) headers[name.toLowerCase()] = plan.headers[name]!
    for (const name of Object.keys(this.config.headers)) headers[name] = this.config.headers[name]!
    if (options.headers) for (const name of Object.keys(options.headers)) headers[name.toLowerCase()] = options.headers[name]!
    exchange.checkHeaders(headers)
    return this.send(
      {
        method: plan.method,
        url,
        retryable: idempotentMethods.has(plan.method),
        replayableBody: true,
        // Each attempt gets its own copy: the exchange may add headers to it.
        exchange: (signal) => exchange({ method: plan.method, url, headers: { ...headers }, body, signal }),
        read: (response) => readJson(response),
      },
      options,
    )
  }

  /**
   * Sends a request built by the caller (used for uploads and downloads, which do not carry the
   * client's auth headers) with the same time limit, abort, retry and error rules.
   *
   * @example
   * ```ts
   * await transport.send({ method: 'GET', url, retryable: true, build: (signal) => new Request(url, { signal }), read: (r) => r.text() }, {})
   * ```
   */
  public async send<T, R extends ResponseLike = Response>(request: SendRequest<T, R>, options: CallOptions): Promise<T> {
    const timeoutMs = options.timeout ?? this.config.timeout
    if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new InvalidInputError(`timeout: expected a positive number of milliseconds, received ${String(timeoutMs)}`)
    }
    const retries = request.retryable ? this.config.retry.retries : 0
    const rateLimitRetries = request.retryable || request.replayableBody === true ? this.config.retry.retries : 0
    let attempt = 0
    let reconnected = false
    for (;;) {
      if (options.signal?.aborted) throw new AbortError('The request was aborted', { cause: options.signal.reason })
      const attemptSignal = new AttemptSignal(options.signal, timeoutMs)
      const started = Date.now()
      let keepLinked = false
      try {
        let response: R
        try {
          response = await attemptSignal.race(Promise.resolve().then(() => this.attempt(request, attemptSignal.signal)))
        } catch (error) {
          this.debug(`${request.method} ${request.url} failed after ${Date.now() - started} ms: ${String(error)}`)
          if (attemptSignal.signal.aborted) throw attemptSignal.reasonError()
          // A kept-alive connection the server closed while idle fails at once; an idempotent request may be
          // sent again on a fresh connection (RFC 9110 §9.2.2), once, whether or not retries are on.
          if (!reconnected && request.retryable && isConnectionReset(error)) {
            reconnected = true
            continue
          }
          if (attempt < retries) {
            await sleep(this.delay(attempt, undefined), options.signal)
            attempt++
            continue
          }
          const reason = error instanceof Error ? error.message : String(error)
          throw new NetworkError(`${request.method} ${request.url} failed: ${reason}`, { cause: error })
        }
        this.debug(`${request.method} ${request.url} -> ${response.status} in ${Date.now() - started} ms${attempt > 0 ? ` (retry ${attempt})` : ''}`)
        if (response.ok) {
          if (request.streamBody) {
            attemptSignal.stopTimer()
            keepLinked = true
            // Streamed bodies come from `build` (a fetch `Response`), never from an exchange.
            return await attemptSignal.race(request.read(abortableBody(response as unknown as Response, options.signal) as unknown as R))
          }
          return await attemptSignal.race(request.read(response))
        }
        if ((response.status === 429 && attempt < rateLimitRetries) || (response.status >= 500 && attempt < retries)) {
          const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'))
          await response.body?.cancel().catch(() => undefined)
          await sleep(this.delay(attempt, retryAfterMs), options.signal)
          attempt++
          continue
        }
        const text = await attemptSignal.race(response.text())
        throw errorFromResponseBody(response.status, text)
      } finally {
        if (keepLinked) attemptSignal.stopTimer()
        else attemptSignal.dispose()
      }
    }
  }

  private attempt<T, R extends ResponseLike>(request: SendRequest<T, R>, signal: AbortSignal): Promise<R> {
    if (request.exchange) return request.exchange(signal)
    if (!request.build) throw new TypeError('send: expected build or exchange')
    return Promise.resolve(this.config.fetch(request.build(signal))) as unknown as Promise<R>
  }

  private debug(line: string): void {
    if (this.config.debug && typeof console !== 'undefined') console.debug(`[botshelf client] ${line}`)
  }

  private delay(attempt: number, retryAfterMs: number | undefined): number {
    const { minDelayMs, maxDelayMs } = this.config.retry
    return retryDelay({ attempt, minDelayMs, maxDelayMs, retryAfterMs })
  }
}

const connectionResetCodes = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'])

/** Whether a fetch failure (or one of its causes) is a connection closed under the request. */
function isConnectionReset(error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && connectionResetCodes.has(code)) return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

async function readJson(response: ResponseLike): Promise<unknown> {
  const text = await response.text()
  if (text.trim() === '') return {}
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new InvalidResponseError(
      `Expected a JSON body from ${response.url || 'the service'} (status ${response.status}), received: ${text.slice(0, 200)}`,
      response.status,
      text.slice(0, 10_000),
    )
  }
}
