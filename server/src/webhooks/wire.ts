import type { Delivery, StorageEventType, Webhook, WebhookWithSecret } from 'botshelf/api'
import type { DeliveryRecord, WebhookRecord } from '../store/index.js'

/**
 * The wire subscription: never its secret.
 *
 * @example
 * ```ts
 * return { webhook: toWireWebhook(record) }
 * ```
 */
export function toWireWebhook(record: WebhookRecord): Webhook {
  return {
    id: record.id,
    url: record.url,
    types: record.types as StorageEventType[],
    description: record.description,
    disabled: record.disabled,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }
}

/**
 * The wire subscription with its current secret: the answers of create and rotate only.
 *
 * @example
 * ```ts
 * return { webhook: toWireWebhookWithSecret(record) }
 * ```
 */
export function toWireWebhookWithSecret(record: WebhookRecord): WebhookWithSecret {
  return { ...toWireWebhook(record), secret: record.secret }
}

/**
 * The wire delivery.
 *
 * @example
 * ```ts
 * deliveries.map(toWireDelivery)
 * ```
 */
export function toWireDelivery(record: DeliveryRecord): Delivery {
  return {
    id: record.id,
    eventId: record.eventId,
    type: record.type as StorageEventType,
    status: record.status,
    attempts: record.attempts,
    ...(record.lastStatusCode !== null ? { lastStatusCode: record.lastStatusCode } : {}),
    ...(record.lastError !== null ? { lastError: record.lastError } : {}),
    ...(record.nextAttemptAt !== null && record.status === 'pending' ? { nextAttemptAt: record.nextAttemptAt } : {}),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }
}
