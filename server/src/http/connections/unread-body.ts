import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * Marks the response `Connection: close` when it answers before the request body has arrived in full (a 401,
 * 403 or 413 decided on the headers). The server then reads out the rest of the body and closes the connection
 * (`lingerIfAnsweredEarly`), and a client that reused that keep-alive socket for its next request would get "socket
 * hang up" with no answer. Saying `close` up front makes the client open a new connection instead.
 *
 * @example
 * ```ts
 * const response = await app.fetch(request)
 * closeIfBodyUnread(incoming, outgoing) // before the response is written
 * ```
 */
export function closeIfBodyUnread(incoming: IncomingMessage, outgoing: ServerResponse): void {
  if (incoming.complete || outgoing.headersSent) return
  const length = incoming.headers['content-length']
  const hasBody = incoming.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
  if (hasBody) outgoing.setHeader('connection', 'close')
}
