// Storage event subscriptions and deliveries on PostgreSQL, and their migrations.
export { PgWebhooksPort } from './webhooks-port.js'
export { postgresWebhooksMigrations } from './migrations.js'
