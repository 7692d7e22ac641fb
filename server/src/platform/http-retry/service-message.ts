/**
 * The message a remote service put in an error answer (`{ error: { message } }`, `{ error }`, `{ message }`), or the
 * start of a non-JSON body, as `: <text>` to append to an error message; empty when there is nothing to show.
 *
 * @example
 * ```ts
 * serviceMessage('{"error":{"message":"model not found"}}') // ': model not found'
 * ```
 */
export function serviceMessage(body: string): string {
  try {
    const json = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown }
    const message = typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message)
    if (typeof message === 'string' && message !== '') return `: ${message.slice(0, 300)}`
  } catch {
    // Not JSON: show the start of the text.
  }
  const text = body.trim().slice(0, 120)
  return text === '' ? '' : `: ${text}`
}

/**
 * Why a `fetch` failed in a few words: the socket error code (`ECONNREFUSED`) when there is one.
 *
 * @example
 * ```ts
 * try { await fetch(url) } catch (error) { console.log(causeOf(error)) } // 'ECONNREFUSED'
 * ```
 */
export function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause
  if (typeof cause?.code === 'string') return cause.code
  if (typeof cause?.message === 'string') return cause.message
  return error instanceof Error ? error.message : String(error)
}
