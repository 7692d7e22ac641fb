// The console's Webhooks page: storage event subscriptions and their deliveries.
export { WebhooksPage, type WebhookRow } from './webhooks-page.js'
export { DeliveriesTable, type DeliveryRow } from './deliveries-table.js'
export { WebhookForm, type WebhookDraft } from './webhook-form.js'
export { SecretBanner } from './secret-banner.js'
export { parseTypes, describeTypes, type WebhookTypes } from './event-types.js'
