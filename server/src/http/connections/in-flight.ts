/**
 * What the server knows of the request a connection is carrying, for the log lines written when Node's HTTP
 * layer cuts that connection (timeouts).
 *
 * @example
 * ```ts
 * const flight: InFlightRequest = { method: 'PUT', path: '/v1/content/upload/file_01', startedAt: Date.now() }
 * ```
 */
export interface InFlightRequest {
  /** @example `'PUT'` */
  readonly method: string
  /** @example `'/v1/content/upload/file_01'` */
  readonly path: string
  /** When its headers were in (ms, wall clock). @example `1767225600000` */
  readonly startedAt: number
  /** The request id, once the app has answered (`x-request-id`). @example `'req_2b0c4f6a9d1e3f57'` */
  requestId?: string
}

/**
 * The requests in progress, by connection: set when a request reaches the app, removed when its response is
 * done. A connection with no entry is between requests (idle keep-alive) or still sending headers.
 *
 * @example
 * ```ts
 * const inFlight = new InFlightRequests()
 * inFlight.start(socket, { method: 'GET', path: '/health', startedAt: Date.now() })
 * inFlight.of(socket)?.path // '/health'
 * ```
 */
export class InFlightRequests {
  private readonly bySocket = new WeakMap<object, InFlightRequest>()

  /**
   * Records the request a connection carries.
   *
   * @example
   * ```ts
   * inFlight.start(incoming.socket, { method: 'GET', path: '/v1/files', startedAt: Date.now() })
   * ```
   */
  start(socket: object, request: InFlightRequest): void {
    this.bySocket.set(socket, request)
  }

  /**
   * The request a connection carries, if any.
   *
   * @example
   * ```ts
   * inFlight.of(socket)?.requestId
   * ```
   */
  of(socket: object): InFlightRequest | undefined {
    return this.bySocket.get(socket)
  }

  /**
   * Forgets the request of a connection once its response is done (only if it is still that request).
   *
   * @example
   * ```ts
   * outgoing.once('close', () => inFlight.end(socket, flight))
   * ```
   */
  end(socket: object, request: InFlightRequest): void {
    if (this.bySocket.get(socket) === request) this.bySocket.delete(socket)
  }
}
