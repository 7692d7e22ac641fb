// Storage events (decisions 1411–1413): the outbox that records them, the jobs that deliver them, the Webhooks API.
export { WebhookDelivery } from './webhook-delivery.js'
export type { WebhookOptions } from './webhook-options.js'
export { webhooksRoutes } from './routes.js'
export { storageEventDraft, toStorageEvent, type StorageEventDraft } from './storage-event.js'
export { recordStorageEvents, deliverWebhookSpec } from './record-events.js'
export { parseRetrySchedule, DEFAULT_WEBHOOK_RETRIES } from './retry-schedule.js'
export { parseHostPolicy, hostAllowed, type WebhookHostPolicy } from './host-policy.js'
export { fileEvent, tableEvent, rowsEvents, tableJobEvent } from './event-drafts.js'
