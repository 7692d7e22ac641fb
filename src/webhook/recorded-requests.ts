import { fromBase64, toBase64 } from './bytes.js'
import type { FetchHandler } from './create-webhook-handler.js'

/** One request as `recordWebhookRequests` wrote it (a line of the file). */
export interface RecordedRequest {
  /** When it was received (ISO 8601): replay it with the handler's clock set to this time. */
  receivedAt: string
  method: string
  url: string
  headers: Record<string, string>
  /** The body bytes, base64. */
  body: string
  /** The status the receiver answered. */
  status: number
}

/** Options of `recordWebhookRequests`. */
export interface RecordWebhookRequestsOptions {
  /**
   * File the requests are appended to, one JSON line each (created when missing).
   * @example `file: 'test/fixtures/webhooks.jsonl'`
   */
  file: string
  /**
   * Clock of `receivedAt`. Default: the real time.
   * @example `now: clock.now`
   */
  now?: () => Date
}

type FsPromises = { appendFile(path: string, data: string): Promise<void>; readFile(path: string, encoding: 'utf8'): Promise<string> }

function loadFs(): Promise<FsPromises> {
  // Dynamic, so that the webhook module stays usable on runtimes without a file system (recording needs Node).
  const specifier = 'node:fs/promises'
  return import(/* @vite-ignore */ /* webpackIgnore: true */ specifier) as Promise<FsPromises>
}

/**
 * Wraps a running receiver's handler so that every request it gets, signed headers and exact body bytes included,
 * is appended to a file with the status it was answered; `readRecordedRequests` turns the file back into requests
 * to replay in a test. Node only (it writes a file). The secret is not written, but the bodies are: record only
 * what may be kept in a repository.
 *
 * @example
 * ```ts
 * const handler = recordWebhookRequests(createWebhookHandler({ runtime, secret }), { file: 'webhooks.jsonl' })
 * createServer(toNodeHandler(handler)).listen(3001)
 * ```
 */
export function recordWebhookRequests(handler: FetchHandler, options: RecordWebhookRequestsOptions): FetchHandler {
  const now = options.now ?? (() => new Date())
  let writes: Promise<void> = Promise.resolve()
  return async (request) => {
    const receivedAt = now().toISOString()
    const bytes = new Uint8Array(await request.arrayBuffer())
    const headers: Record<string, string> = {}
    request.headers.forEach((value, name) => {
      headers[name] = value
    })
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD'
    const response = await handler(new Request(request.url, { method: request.method, headers, ...(hasBody ? { body: bytes as BodyInit } : {}) }))
    const line: RecordedRequest = { receivedAt, method: request.method, url: request.url, headers, body: toBase64(bytes), status: response.status }
    // Appends one after the other, so lines never interleave.
    writes = writes.then(async () => (await loadFs()).appendFile(options.file, JSON.stringify(line) + '\n'))
    await writes
    return response
  }
}

/**
 * Reads a file written by `recordWebhookRequests`: each entry with `toRequest()` (a fresh `Request`, as it was
 * received) and `receivedAt` (a `Date`; set the handler's clock to it, or the timestamp check refuses the replay).
 *
 * @example
 * ```ts
 * for (const recorded of await readRecordedRequests('test/fixtures/webhooks.jsonl')) {
 *   const handler = createWebhookHandler({ runtime, secret, now: () => recorded.receivedAt })
 *   expect((await handler(recorded.toRequest())).status).toBe(recorded.status)
 * }
 * ```
 */
export async function readRecordedRequests(file: string): Promise<Array<Omit<RecordedRequest, 'receivedAt'> & { receivedAt: Date; toRequest(): Request }>> {
  const text = await (await loadFs()).readFile(file, 'utf8')
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      const recorded = JSON.parse(line) as RecordedRequest
      const bytes = fromBase64(recorded.body)
      if (!bytes) throw new Error(`${file}:${index + 1}: body: expected base64, received ${JSON.stringify(recorded.body.slice(0, 40))}`)
      const hasBody = recorded.method !== 'GET' && recorded.method !== 'HEAD'
      return {
        ...recorded,
        receivedAt: new Date(recorded.receivedAt),
        toRequest: () => new Request(recorded.url, { method: recorded.method, headers: recorded.headers, ...(hasBody ? { body: bytes as BodyInit } : {}) }),
      }
    })
}
