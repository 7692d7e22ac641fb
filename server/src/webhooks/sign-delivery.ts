import { signWebhookPayload } from 'botshelf/api'
import type { WebhookRecord } from '../store/index.js'

/**
 * The secrets that sign a delivery now: the current one, and the previous one while its 24 hours after a
 * rotation last (receivers holding either verify).
 *
 * @example
 * ```ts
 * signingSecrets(webhook, new Date()) // ['whsec_new...', 'whsec_old...']
 * ```
 */
export function signingSecrets(webhook: WebhookRecord, now: Date): string[] {
  const previousValid = webhook.previousSecret !== null && webhook.previousSecretUntil !== null && Date.parse(webhook.previousSecretUntil) > now.getTime()
  return previousValid ? [webhook.secret, webhook.previousSecret!] : [webhook.secret]
}

/**
 * The Standard Webhooks headers of one attempt, signed with botshelf's own signer (the one its receiver verifies
 * with): `webhook-signature` holds one `v1,<base64>` per secret, space-separated.
 *
 * @example
 * ```ts
 * const headers = await deliveryHeaders(event.id, body, ['whsec_...'], new Date())
 * ```
 */
export async function deliveryHeaders(eventId: string, body: string, secrets: ReadonlyArray<string>, now: Date): Promise<Record<string, string>> {
  const timestamp = Math.floor(now.getTime() / 1000)
  const signatures = await Promise.all(secrets.map((secret) => signWebhookPayload({ id: eventId, timestamp, payload: body, secret })))
  return {
    'content-type': 'application/json',
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatures.join(' '),
    'user-agent': 'botshelf-webhooks',
  }
}
