// The port of storage event subscriptions and deliveries; the adapters share its row mapping.
export type { WebhooksPort } from './webhooks-port.js'
export type { AddDeliveryInput, CreateWebhookInput, DeliveryPatch, DeliveryRecord, DeliveryStatus, IdPage, IdPageQuery, WebhookPatch, WebhookRecord } from './types.js'
export { webhookRowToRecord, deliveryRowToRecord, wantsType, idPage, type WebhookRow, type DeliveryRow } from './webhook-row.js'
export { newWebhookId, newDeliveryId } from './ids.js'
