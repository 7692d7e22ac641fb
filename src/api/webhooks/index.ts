// The Webhooks API on the wire and the storage events it delivers: one definition for the service and the runtime.
export {
  storageEventPayloads,
  storageEventTypes,
  isStorageEventType,
  StorageEventTypeSchema,
  StorageEventSchema,
  ROWS_PER_EVENT,
  type StorageEvent,
  type StorageEventType,
  type StorageEventPayload,
} from './storage-events.js'
export {
  WebhookSchema,
  WebhookWithSecretSchema,
  WebhookUrlSchema,
  DeliverySchema,
  deliveryStatuses,
  WEBHOOKS_PER_BOT,
  type Webhook,
  type WebhookWithSecret,
  type Delivery,
} from './webhook.js'
export {
  createWebhook,
  listWebhooks,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  rotateWebhookSecret,
  listWebhookDeliveries,
  retryWebhookDelivery,
  webhooksOperations,
} from './operations.js'
// How a delivery is signed (Standard Webhooks): the service signs with this, the runtime's receiver verifies. Here so
// the service reaches the signer without loading the bot runtime that the package's main entry brings (decision 1480).
export { signWebhookPayload, SECRET_PREFIX, type WebhookSecret } from '../../webhook/signature.js'
