import type { ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Logger } from '../logger.js'
import type { InFlightRequests } from './in-flight.js'
import { isLingering, lingerThenClose } from './linger.js'
import { newRequestId, refusalMessage, type Refusal } from './refusal.js'
import { formatDuration } from './timeouts.js'
import type { Clock } from 'botshelf/api'

/** What `parserRefusal` needs to word its answer. */
export interface ParserLimits {
  /**
   * The size limit of the request line and headers, in bytes (`http.maxHeaderSize`, 16 384 unless Node runs with
   * `--max-http-header-size`).
   *
   * @example
   * ```ts
   * { maxHeaderSize: 16_384, headersTimeoutMs: 20_000, requestTimeoutMs: 3_600_000 }
   * ```
   */
  readonly maxHeaderSize: number
  /** @example `20_000` */
  readonly headersTimeoutMs: number
  /** @example `3_600_000` */
  readonly requestTimeoutMs: number
}

/**
 * The answer to an error Node's HTTP server reports on a connection (`clientError`), or `undefined` when there
 * is nobody to answer (the client went away):
 * - `HPE_HEADER_OVERFLOW` (a URL or headers over `maxHeaderSize`) → 431, type `LimitExceeded`;
 * - `HPE_CHUNK_EXTENSIONS_OVERFLOW` → 413 `PayloadTooLarge`;
 * - `ERR_HTTP_REQUEST_TIMEOUT` → 408, type `OperationTimeout` (headers too slow, or a whole request over the
 *   request timeout when `requestInProgress`);
 * - any other parse error (`HPE_…`: a malformed request line, header or chunk) → 400 `InvalidPayload`.
 *
 * @example
 * ```ts
 * parserRefusal(Object.assign(new Error('Parse Error: Header overflow'), { code: 'HPE_HEADER_OVERFLOW' }), limits, false)?.status // 431
 * ```
 */
export function parserRefusal(error: Error & { code?: string }, limits: ParserLimits, requestInProgress: boolean): Refusal | undefined {
  const code = error.code ?? ''
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      type: 'LimitExceeded',
      message: `The request line and headers are larger than the limit of ${limits.maxHeaderSize} bytes; send a shorter URL or fewer headers`,
      metadata: { limit: limits.maxHeaderSize, reason: code },
    }
  }
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') {
    return { status: 413, type: 'PayloadTooLarge', message: 'The chunk extensions of the request body are too large', metadata: { reason: code } }
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    const limitMs = requestInProgress ? limits.requestTimeoutMs : limits.headersTimeoutMs
    const what = requestInProgress ? 'The request did not arrive in full' : 'The request headers did not arrive'
    return { status: 408, type: 'OperationTimeout', message: `${what} within ${formatDuration(limitMs)}; send it again`, metadata: { limitMs, reason: code } }
  }
  if (code.startsWith('HPE_')) {
    const detail = error.message.replace(/^Parse Error:?\s*/, '') || 'unreadable'
    return { status: 400, type: 'InvalidPayload', message: `The request is not valid HTTP/1.1: ${detail}`, metadata: { reason: code } }
  }
  return undefined
}

/** What the `clientError` listener needs. */
export interface ClientErrorContext {
  /** @example `{ maxHeaderSize: 16_384, headersTimeoutMs: 20_000, requestTimeoutMs: 3_600_000 }` */
  readonly limits: ParserLimits
  /** The requests in progress, to tell a slow request from slow headers. @example `new InFlightRequests()` */
  readonly inFlight: InFlightRequests
  /** The app's clock (error ids). @example `() => new Date()` */
  readonly now: Clock
  /** @example `createJsonLogger()` */
  readonly logger: Logger
}

/**
 * The `clientError` listener of the HTTP server: instead of Node's bare answers (an empty 400, 408 or 431), it
 * writes the wire error body of `parserRefusal` with an `x-request-id` and `connection: close`, logs a `warn` line
 * (`request refused`, or `request timed out` with a `phase`) with the request id, status and reason, and closes the
 * connection once the client has sent the rest of its request or a bound is reached (`lingerThenClose`), so a
 * client still writing a body reads the answer. A connection that cannot be answered (the client left, or an
 * answer was already under way) is closed without a word.
 *
 * @example
 * ```ts
 * server.on('clientError', clientErrorListener({ limits, inFlight, now: () => new Date(), logger }))
 * ```
 */
export function clientErrorListener(context: ClientErrorContext): (error: Error & { code?: string }, socket: Duplex) => void {
  return (error, socket) => {
    // Node's parser stays in error and reports every further chunk of a refused request: those bytes are the rest
    // of the request being read out after its answer, not a new error to answer (or to close the socket on).
    if (isLingering(socket)) return
    const flight = context.inFlight.of(socket)
    const pending = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage
    const refusal = parserRefusal(error, context.limits, flight !== undefined)
    if (!refusal || !socket.writable || pending?.headersSent === true) {
      socket.destroy()
      return
    }
    const requestId = newRequestId()
    const timedOut = refusal.status === 408
    const remote = socket as Duplex & { remoteAddress?: string }
    context.logger.log('warn', timedOut ? 'request timed out' : 'request refused', {
      requestId,
      status: refusal.status,
      reason: refusal.message,
      code: error.code ?? null,
      ...(timedOut ? { phase: flight ? 'request' : 'headers', limitMs: refusal.metadata?.limitMs } : {}),
      ...(flight ? { method: flight.method, path: flight.path } : {}),
      remoteAddress: remote.remoteAddress ?? null,
    })
    const rawStart = (error as Error & { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1')
    const headOnly = flight ? flight.method === 'HEAD' : rawStart === 'HEAD '
    socket.end(refusalMessage(refusal, context.now(), requestId, { headOnly }))
    lingerThenClose(socket)
  }
}
