// Storage event subscriptions and deliveries on SQLite, and their migrations.
export { SqliteWebhooksStore } from './webhooks-port.js'
export { webhooksMigrations } from './migrations.js'
