/** What one attempt got: a 2xx (`ok`), another status, or no answer (`error`). */
export interface AttemptResult {
  readonly ok: boolean
  readonly statusCode?: number
  readonly error?: string
}

/** The `fetch` a delivery uses (injectable for tests at the edge of the world). */
export type DeliveryFetch = (url: string, init: { method: 'POST'; headers: Record<string, string>; body: string; signal: AbortSignal; redirect: 'manual' }) => Promise<{ status: number; body: unknown; arrayBuffer(): Promise<ArrayBuffer> }>

/**
 * POSTs a body once; any 2xx within `timeoutMs` is delivered. Redirects are not followed (a 3xx is a failure:
 * following one could reach a host the policy refuses). The answer's body is read and dropped.
 *
 * @example
 * ```ts
 * const result = await sendAttempt(fetch, webhook.url, headers, body, 10_000, signal)
 * ```
 */
export async function sendAttempt(
  send: DeliveryFetch,
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<AttemptResult> {
  const timeout = AbortSignal.timeout(timeoutMs)
  try {
    const response = await send(url, { method: 'POST', headers, body, signal: AbortSignal.any([signal, timeout]), redirect: 'manual' })
    await response.arrayBuffer().catch(() => undefined)
    const ok = response.status >= 200 && response.status < 300
    return ok ? { ok, statusCode: response.status } : { ok, statusCode: response.status, error: `the endpoint answered ${response.status}` }
  } catch (error) {
    if (signal.aborted) throw error
    if (timeout.aborted) return { ok: false, error: `no answer within ${timeoutMs} ms` }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    return { ok: false, error: `could not reach the endpoint: ${cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))}` }
  }
}
