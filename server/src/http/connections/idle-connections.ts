import type { Socket } from 'node:net'
import type { ServerResponse } from 'node:http'
import type { Logger } from '../logger.js'
import type { InFlightRequests } from './in-flight.js'
import { newRequestId, refusalMessage } from './refusal.js'
import { formatDuration } from './timeouts.js'
import type { Clock } from 'botshelf/api'

/** What the `timeout` listener needs. */
export interface IdleContext {
  /** The idle bound, for the log and the answer. @example `120_000` */
  readonly idleTimeoutMs: number
  /** @example `new InFlightRequests()` */
  readonly inFlight: InFlightRequests
  /** @example `() => new Date()` */
  readonly now: Clock
  /** @example `createJsonLogger()` */
  readonly logger: Logger
}

/**
 * The `timeout` listener of the HTTP server (socket inactivity): a connection whose request went silent for
 * `idleTimeoutMs` (a stalled upload, a client that stopped reading its answer) is closed, with a 408
 * `OperationTimeout` wire error when no answer had started, and a `request timed out` line (`phase: 'idle'`).
 * A kept-alive connection idle between requests is closed without a line.
 *
 * @example
 * ```ts
 * server.setTimeout(120_000)
 * server.on('timeout', idleConnectionListener({ idleTimeoutMs: 120_000, inFlight, now: () => new Date(), logger }))
 * ```
 */
export function idleConnectionListener(context: IdleContext): (socket: Socket) => void {
  return (socket) => {
    const flight = context.inFlight.of(socket)
    if (!flight) {
      socket.destroy()
      return
    }
    const pending = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage
    const answered = pending?.headersSent === true
    const requestId = flight.requestId ?? newRequestId()
    context.logger.log('warn', 'request timed out', {
      requestId,
      phase: 'idle',
      method: flight.method,
      path: flight.path,
      limitMs: context.idleTimeoutMs,
      answerStarted: answered,
      remoteAddress: socket.remoteAddress ?? null,
    })
    if (answered || !socket.writable) {
      socket.destroy()
      return
    }
    const message = `The connection was silent for ${formatDuration(context.idleTimeoutMs)} during the request; send it again`
    socket.end(refusalMessage({ status: 408, type: 'OperationTimeout', message, metadata: { limitMs: context.idleTimeoutMs } }, context.now(), requestId))
    socket.once('finish', () => socket.destroy())
  }
}
