import { newRequestId } from '../connections/refusal.js'

/** The start of a request: its id (sent back as `x-request-id`, written in its log line) and when it arrived. */
export interface RequestStart {
  readonly requestId: string
  /** `performance.now()` at arrival, for the log line's `ms` and the metrics' duration. */
  readonly started: number
}

/**
 * Step 1 of the request pipeline: names the request and starts its clock.
 *
 * @example
 * ```ts
 * const { requestId, started } = beginRequest() // requestId: 'req_2b0c4f6a9d1e3f57'
 * ```
 */
export function beginRequest(): RequestStart {
  return { started: performance.now(), requestId: newRequestId() }
}
