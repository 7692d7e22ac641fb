import { utf8 } from './bytes.js'
import { WebhookVerificationError } from './errors.js'
import type { WebhookSecret } from './signature.js'
import type { ClockLike } from '../clock/index.js'
import { createVerifier, type HeadersLike } from './verifier.js'

/** Options of `verifyWebhook`. */
export interface VerifyWebhookOptions {
  /**
   * The raw body exactly as received (a string or bytes): re-serialized JSON would not match the signature.
   * @example `payload: await request.text()`
   */
  payload: string | Uint8Array
  /**
   * The request headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`): a `Headers` or Node's `req.headers`.
   * @example `headers: req.headers`
   */
  headers: HeadersLike
  /**
   * `whsec_<base64>` secret, or several during a rotation.
   * @example `secret: process.env.WEBHOOK_SECRET!`
   */
  secret: WebhookSecret
  /**
   * Accepted clock skew in seconds, both ways. Default 300.
   * @example `toleranceSeconds: 60`
   */
  toleranceSeconds?: number
  /**
   * Clock. Default: the real time.
   * @example `now: () => new Date('2024-05-01T10:00:00Z')`
   */
  now?: ClockLike
}

/**
 * Verifies a Standard Webhooks request for people who run their own HTTP stack: headers present, a `v1`
 * signature matching one of the secrets, the timestamp inside the tolerance; then parses the JSON body and
 * returns it (validate it with `parseEvent`). Throws `WebhookVerificationError` (`code` tells which check
 * failed) or `WebhookConfigError` for a bad secret.
 *
 * @example
 * ```ts
 * app.post('/webhook', express.raw({ type: '*\/*' }), async (req, res) => {
 *   const body = await verifyWebhook({ payload: req.body, headers: req.headers, secret: process.env.WEBHOOK_SECRET! })
 *   const event = parseEvent(body)
 *   res.sendStatus(204)
 * })
 * ```
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<unknown> {
  const verifier = createVerifier(options)
  const bytes = typeof options.payload === 'string' ? utf8(options.payload) : options.payload
  await verifier.verify(options.headers, bytes)
  return parseJsonBody(bytes)
}

const decoder = new TextDecoder('utf-8', { fatal: true })

/** Parses a UTF-8 JSON body; throws `WebhookVerificationError` with code `INVALID_JSON`. */
export function parseJsonBody(bytes: Uint8Array): unknown {
  let text: string
  try {
    text = decoder.decode(bytes)
  } catch {
    throw new WebhookVerificationError('INVALID_JSON', 'Body: expected UTF-8 JSON, received bytes that are not valid UTF-8')
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error)
    throw new WebhookVerificationError('INVALID_JSON', `Body: expected JSON, received text that does not parse (${detail})`)
  }
}
