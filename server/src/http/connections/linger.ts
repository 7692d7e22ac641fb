import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { TABLES_JSON_LIMIT } from '../body.js'

/**
 * How long, and how many bytes, a connection answered before its request arrived in full is still read (and the
 * bytes dropped) before it is closed: 5 s, or 40 MB (the largest body the API takes). A client that sends more,
 * or more slowly, has been reading the answer all along; it then sees its connection reset.
 *
 * @example
 * ```ts
 * lingerLimits.maxBytes // 41943040
 * ```
 */
export const lingerLimits = { timeMs: 5_000, maxBytes: TABLES_JSON_LIMIT } as const

type LingeringSocket = Duplex & { bytesRead?: number }

const lingering = new WeakSet<Duplex>()

/**
 * Whether `socket` is being read out after its answer (`lingerThenClose`): more parse errors on it are the rest of
 * the refused request, not a new one to answer.
 *
 * @example
 * ```ts
 * if (isLingering(socket)) return // the rest of a request already refused
 * ```
 */
export function isLingering(socket: Duplex): boolean {
  return lingering.has(socket)
}

/**
 * Closes a connection whose answer is written (the caller has called `socket.end(answer)`, which sends it and then
 * half-closes) without losing that answer. Closing at once would make the kernel reset the connection, since the
 * client's bytes are still arriving: a client still writing its body gets EPIPE or ECONNRESET, and most clients
 * (Node's among them) then drop the answer they had received. So the connection is read and the bytes dropped
 * until the client has sent everything (`bodyEnded`, the request's `end`, or the client's own half-close), or for
 * at most `lingerLimits` (5 s, 40 MB); then it is destroyed. Calling it again on the same socket does nothing.
 *
 * @example
 * ```ts
 * socket.end(refusalMessage(refusal, now(), requestId))
 * lingerThenClose(socket)
 * ```
 */
export function lingerThenClose(socket: Duplex, bodyEnded?: IncomingMessage): void {
  if (lingering.has(socket)) return
  lingering.add(socket)
  const counted = socket as LingeringSocket
  const startBytes = counted.bytesRead ?? 0
  // Once the client has sent everything, close as soon as the answer is flushed; past a bound, close at once.
  const close = (): void => {
    clearTimeout(deadline)
    clearInterval(meter)
    if (socket.writableFinished) socket.destroy()
    else socket.once('finish', () => socket.destroy())
  }
  const cut = (): void => {
    clearTimeout(deadline)
    clearInterval(meter)
    socket.destroy()
  }
  const deadline = setTimeout(cut, lingerLimits.timeMs)
  deadline.unref()
  const meter = setInterval(() => {
    if ((counted.bytesRead ?? 0) - startBytes > lingerLimits.maxBytes) cut()
  }, 50)
  meter.unref()
  socket.once('end', close)
  socket.once('close', () => {
    clearTimeout(deadline)
    clearInterval(meter)
  })
  if (bodyEnded === undefined) {
    // The parser gave up on this request: a 'data' listener takes the socket back from it (Node's HTTP server
    // stops feeding its parser then), and the bytes are dropped here.
    socket.on('data', () => undefined)
    socket.resume()
    return
  }
  if (bodyEnded.complete) {
    close()
    return
  }
  // The parser goes on reading the body and the request drops it (as Node's own `_dump` does: the readers of the
  // body, such as a web stream nobody pulls, would pause it): it ends when the client has sent all of it.
  bodyEnded.once('end', close)
  bodyEnded.once('error', close)
  bodyEnded.removeAllListeners('data')
  bodyEnded.resume()
  // The request's backpressure may have stopped the socket's reads; the HTTP server starts them again on the
  // socket's 'resume' event, which `resume()` alone does not emit on a socket that already counts as flowing.
  socket.pause()
  socket.resume()
}

/**
 * Keeps the answer of a request answered before its body arrived in full (a 401, 404 or 413 decided on the
 * headers) readable. Node closes such a connection (the answer says `connection: close`) as soon as the answer is
 * written, through `socket.destroySoon()`, and the client still writing its body is reset before it reads the
 * answer. When the response is about to finish with the body unread, this replaces that socket's `destroySoon`
 * with a lingering close (`lingerThenClose`): half-close after the answer, read the rest of the body, then close.
 * Call it first thing for every request.
 *
 * @example
 * ```ts
 * createHttpServer(options, (incoming, outgoing) => {
 *   lingerIfAnsweredEarly(incoming, outgoing)
 *   listener(incoming, outgoing)
 * })
 * ```
 */
export function lingerIfAnsweredEarly(incoming: IncomingMessage, outgoing: ServerResponse): void {
  outgoing.once('prefinish', () => {
    if (incoming.complete) return
    const socket = incoming.socket as (Duplex & { destroySoon?: () => void }) | null
    if (!socket || socket.destroyed || typeof socket.destroySoon !== 'function') return
    const destroySoon = socket.destroySoon
    socket.destroySoon = () => {
      // The body may have arrived meanwhile (a keep-alive connection closed later, for another request).
      if (incoming.complete) return destroySoon.call(socket)
      if (socket.writable) socket.end()
      lingerThenClose(socket, incoming)
    }
  })
}
