import { clockMs, type ClockLike } from '../clock/index.js'
import { WebhookConfigError, WebhookVerificationError } from './errors.js'
import { decodeSecrets, importSigningKey, matchesAnySignature, type SigningKey, type WebhookSecret } from './signature.js'

/** Default accepted clock skew, both ways: 5 minutes. */
export const DEFAULT_TOLERANCE_SECONDS = 300

/** Headers as a `Headers` object or a plain record (Node's `req.headers`). */
export type HeadersLike = Headers | Readonly<Record<string, string | readonly string[] | undefined>>

/** What a successful verification knows about the request. */
export interface VerifiedWebhook {
  id: string
  timestamp: number
}

/** Verifies signature and timestamp of raw webhook bodies; keys are imported once. */
export interface WebhookVerifier {
  verify(headers: HeadersLike, body: Uint8Array): Promise<VerifiedWebhook>
}

/** Reads one header whatever the container; arrays give their first value. */
export function readHeader(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>
  const key = Object.keys(record).find((k) => k.toLowerCase() === name)
  const value = key === undefined ? undefined : record[key]
  return typeof value === 'string' ? value : value?.[0]
}

/**
 * One of the three signed headers under its Standard Webhooks name (`webhook-id`) or, when absent, its Svix name
 * (`svix-id`): senders built on Svix (Clerk, Resend, ...) use the second spelling, with the same scheme.
 *
 * @example
 * ```ts
 * readSignedHeader(new Headers({ 'svix-id': 'msg_1' }), 'id') // 'msg_1'
 * ```
 */
export function readSignedHeader(headers: HeadersLike, field: 'id' | 'timestamp' | 'signature'): string | undefined {
  return readHeader(headers, `webhook-${field}`) || readHeader(headers, `svix-${field}`)
}

/** Checks `toleranceSeconds` and returns it (default 300). */
export function checkTolerance(toleranceSeconds: unknown): number {
  if (toleranceSeconds === undefined) return DEFAULT_TOLERANCE_SECONDS
  if (typeof toleranceSeconds !== 'number' || !Number.isFinite(toleranceSeconds) || toleranceSeconds <= 0) {
    throw new WebhookConfigError(`toleranceSeconds: expected a positive number, received ${String(toleranceSeconds)}`)
  }
  return toleranceSeconds
}

/**
 * Builds a verifier. Throws `WebhookConfigError` at once for a missing, empty or non-base64 secret.
 * Verification order: headers present, signature (401 material), then timestamp within the tolerance.
 */
export function createVerifier(options: { secret: WebhookSecret; toleranceSeconds?: number; now?: ClockLike }): WebhookVerifier {
  const rawKeys = decodeSecrets(options.secret)
  const toleranceSeconds = checkTolerance(options.toleranceSeconds)
  let keys: Promise<SigningKey[]> | undefined
  let readyKeys: SigningKey[] | undefined
  return {
    async verify(headers, body) {
      const id = readSignedHeader(headers, 'id')
      const timestamp = readSignedHeader(headers, 'timestamp')
      const signature = readSignedHeader(headers, 'signature')
      if (!id || !timestamp || !signature) {
        const missing = [
          ['webhook-id', id],
          ['webhook-timestamp', timestamp],
          ['webhook-signature', signature],
        ]
          .filter(([, value]) => value === undefined || value === '')
          .map(([name]) => name)
        throw new WebhookVerificationError(
          'MISSING_HEADER',
          `Missing webhook header${missing.length > 1 ? 's' : ''}: ${missing.join(', ')} (or their svix-* spelling)`,
        )
      }
      // The keys are imported once; later requests use them without awaiting the import again.
      readyKeys ??= await (keys ??= Promise.all(rawKeys.map(importSigningKey)))
      if (!(await matchesAnySignature(readyKeys, id, timestamp, body, signature))) {
        throw new WebhookVerificationError('INVALID_SIGNATURE', 'webhook-signature: no v1 signature matches the payload for the configured secret(s)')
      }
      if (!/^\d{1,15}$/.test(timestamp)) {
        throw new WebhookVerificationError('INVALID_TIMESTAMP', `webhook-timestamp: expected integer seconds since the epoch, received ${JSON.stringify(timestamp.slice(0, 40))}`)
      }
      const sentAt = Number(timestamp)
      const nowSeconds = Math.floor(clockMs(options.now) / 1000)
      if (nowSeconds - sentAt > toleranceSeconds) {
        throw new WebhookVerificationError('TIMESTAMP_TOO_OLD', `webhook-timestamp: ${nowSeconds - sentAt} s old, more than the ${toleranceSeconds} s tolerance`)
      }
      if (sentAt - nowSeconds > toleranceSeconds) {
        throw new WebhookVerificationError('TIMESTAMP_TOO_NEW', `webhook-timestamp: ${sentAt - nowSeconds} s in the future, more than the ${toleranceSeconds} s tolerance`)
      }
      return { id, timestamp: sentAt }
    },
  }
}
