/**
 * The time bounds of the service on a port, in milliseconds (docs/server.md, "Timeouts and slow clients";
 * docs/decisions/0702-rate-limits-and-timeouts.md). `bodyTimeoutMs` is an app option (`createApp`); the others
 * are options of `createServer`.
 *
 * @example
 * ```ts
 * defaultTimeouts.headersTimeoutMs // 20000
 * ```
 */
export interface Timeouts {
  /**
   * Time to receive a request's headers, from its first byte (or from the connection for a new one). Past it:
   * 408 `OperationTimeout` and the connection is closed. Default 20 000.
   *
   * @example
   * ```ts
   * { headersTimeoutMs: 10_000 }
   * ```
   */
  readonly headersTimeoutMs: number
  /**
   * Time to receive a whole request, body included: the bound of an upload (a content PUT). Default 3 600 000
   * (1 hour), so a 1 GB upload over a slow link is not cut.
   *
   * @example
   * ```ts
   * { requestTimeoutMs: 2 * 60 * 60 * 1000 }
   * ```
   */
  readonly requestTimeoutMs: number
  /**
   * Time to receive the body of any other request (a JSON body), from the moment its headers are in. Past it:
   * 408 `OperationTimeout` and the connection is closed. Default 60 000 (a 40 MB Tables body needs about 5.6
   * Mbit/s; the usual few kilobytes need nothing special).
   *
   * @example
   * ```ts
   * { bodyTimeoutMs: 30_000 }
   * ```
   */
  readonly bodyTimeoutMs: number
  /**
   * Time a connection with a request in progress may go without a byte moving either way (a stalled upload, a
   * client that stopped reading its download). Past it the connection is closed (a 408 when no answer started).
   * Default 120 000. Idle kept-alive connections between requests are closed after 65 s instead.
   *
   * @example
   * ```ts
   * { idleTimeoutMs: 300_000 }
   * ```
   */
  readonly idleTimeoutMs: number
}

/**
 * The default bounds: headers 20 s, a JSON body 60 s, a whole request (an upload) 1 hour, a silent connection 2
 * minutes.
 *
 * @example
 * ```ts
 * await createServer({ memory: true, ...defaultTimeouts, bodyTimeoutMs: 30_000 })
 * ```
 */
export const defaultTimeouts: Timeouts = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 3_600_000,
  bodyTimeoutMs: 60_000,
  idleTimeoutMs: 120_000,
}

/**
 * Checks one timeout option: a whole number of milliseconds from 0 (0 switches that bound off), or throws a
 * `TypeError` naming it.
 *
 * @example
 * ```ts
 * checkTimeout('bodyTimeoutMs', 30_000) // 30000
 * checkTimeout('bodyTimeoutMs', -1) // throws TypeError
 * ```
 */
export function checkTimeout(name: keyof Timeouts, value: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new TypeError(`${name} must be a whole number of milliseconds from 0 (0 switches it off), received ${String(value)}`)
  }
  return value
}

/**
 * A duration for messages: whole seconds when it is one (`60 s`), else milliseconds (`250 ms`).
 *
 * @example
 * ```ts
 * formatDuration(60_000) // '60 s'
 * formatDuration(250) // '250 ms'
 * ```
 */
export function formatDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}
