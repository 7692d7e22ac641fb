/**
 * Options of a single call, the optional second argument of every client method.
 *
 * @example
 * ```ts
 * const controller = new AbortController()
 * await client.getFile({ id: 'a.txt' }, { signal: controller.signal, timeout: 5_000, headers: { 'x-request-id': 'r1' } })
 * ```
 */
export interface CallOptions {
  /** Cancels the call (and any retry wait); the call then fails with `AbortError`. @example `{ signal: AbortSignal.timeout(1000) }` */
  signal?: AbortSignal
  /** Overrides the client's `timeout` for this call, in milliseconds. @example `{ timeout: 5_000 }` */
  timeout?: number
  /** Extra headers for this call only, applied after the client's headers. @example `{ headers: { 'x-request-id': 'r1' } }` */
  headers?: Record<string, string>
}
