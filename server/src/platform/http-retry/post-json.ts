import { systemClock, type Clock } from 'botshelf/api'
import { retryAfterMs } from './retry-after.js'
import { causeOf, serviceMessage } from './service-message.js'
import { TransientFailure } from './transient-failure.js'

/** How to send one JSON request to a remote service. */
export interface PostJsonOptions {
  /** Sent as `Authorization: Bearer <apiKey>` when given. */
  apiKey?: string | undefined
  /** Deadline of this one attempt in milliseconds. */
  timeoutMs: number
  /** Aborts the attempt; its reason is thrown as is. */
  signal?: AbortSignal | undefined
  /** The fetch implementation (default the global one). */
  fetch?: typeof fetch | undefined
  /** The clock that dates an HTTP-date `Retry-After` (default the system clock). */
  now?: Clock | undefined
}

/** A final (non-transient) answer: a 2xx, or a status the service will answer again the same way. */
export interface JsonAnswer {
  status: number
  /** The body as text (the caller parses it and names what is wrong). */
  body: string
  /** `: <the service's message>` for an error answer, empty otherwise; ready to append to an error message. */
  message: string
}

/**
 * POSTs `body` as JSON to `endpoint` once. A refused connection, a timeout, a 408, a 429 or a 5xx is a
 * `TransientFailure` (with the service's `Retry-After`); any other answer is returned for the caller to judge. An
 * abort through `signal` throws its reason.
 *
 * @example
 * ```ts
 * const answer = await postJsonOnce('http://127.0.0.1:11434/v1/chat/completions', { model: 'llama3', messages }, { timeoutMs: 30_000 })
 * if (answer instanceof TransientFailure) console.log('try later', answer.retryAfterMs)
 * ```
 */
export async function postJsonOnce(endpoint: string, body: unknown, options: PostJsonOptions): Promise<JsonAnswer | TransientFailure> {
  const timeout = AbortSignal.timeout(options.timeoutMs)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  const fetchImpl = options.fetch ?? globalThis.fetch
  let response: Response
  let text: string
  try {
    response = await fetchImpl(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      signal,
    })
    text = await response.text()
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason
    if (timeout.aborted) return new TransientFailure(`no answer within ${options.timeoutMs} ms`, undefined)
    return new TransientFailure(`cannot reach ${endpoint}: ${causeOf(error)}`, undefined)
  }
  const status = response.status
  if (status === 429 || status === 408 || status >= 500) {
    return new TransientFailure(`${endpoint} answered ${status}${serviceMessage(text)}`, retryAfterMs(response.headers.get('retry-after'), options.now ?? systemClock))
  }
  return { status, body: text, message: status >= 200 && status < 300 ? '' : serviceMessage(text) }
}
