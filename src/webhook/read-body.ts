import { concatBytes } from './bytes.js'
import { WebhookBodyConsumedError } from './errors.js'

/** Outcome of reading a request body under a limit. */
export type BodyReadResult = { ok: true; bytes: Uint8Array } | { ok: false; reason: 'too_large'; limit: number }

/**
 * Reads a request body while counting bytes, and stops as soon as the count passes `limit`: a declared
 * `content-length` over the limit is refused before reading anything, and a body that grows past it is cancelled
 * mid-stream, so an oversized upload is never buffered whole.
 */
export async function readBodyWithLimit(request: Request, limit: number): Promise<BodyReadResult> {
  const declared = request.headers.get('content-length')
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) {
    await request.body?.cancel().catch(() => undefined)
    return { ok: false, reason: 'too_large', limit }
  }
  if (request.bodyUsed) {
    throw new WebhookBodyConsumedError('Body: already read before the webhook handler (request.bodyUsed): hand the handler the request unread, or a clone read before')
  }
  if (!request.body) return { ok: true, bytes: new Uint8Array(0) }
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > limit) {
      await reader.cancel().catch(() => undefined)
      return { ok: false, reason: 'too_large', limit }
    }
    chunks.push(value)
  }
  return { ok: true, bytes: concatBytes(chunks) }
}
