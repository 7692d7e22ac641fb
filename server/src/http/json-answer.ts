import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

/**
 * A JSON answer written as text with its `Content-Length`, as the operations answer (decision 1211): no web stream
 * is built for it (@hono/node-server writes the string to the socket in one call) and the request context counts its
 * bytes from the header. Same body and `content-type` as Hono's `c.json`.
 *
 * @example
 * ```ts
 * routes.get('/health', (c) => jsonAnswer(c, { status: 'ok' }))
 * ```
 */
export function jsonAnswer(c: Context, value: unknown, status: ContentfulStatusCode = 200): Response {
  const text = JSON.stringify(value)
  return c.body(text, status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) })
}
