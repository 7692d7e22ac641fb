import type { AddDeliveryInput, CreateWebhookInput, DeliveryPatch, DeliveryRecord, IdPage, IdPageQuery, WebhookPatch, WebhookRecord } from './types.js'

/**
 * The storage event subscriptions of each bot and their deliveries (the outbox of storage events, decision 1411).
 * A delivery row is written in the transaction of the change it reports, beside the job that sends it.
 *
 * @example
 * ```ts
 * const webhook = await backend.webhooks.createWebhook({ botId, url, types: [], description: '', secret })
 * await backend.transaction(async (tx) => {
 *   for (const target of await tx.webhooks.subscribers(botId, 'file.created')) await tx.webhooks.addDelivery({ ... })
 * })
 * ```
 */
export interface WebhooksPort {
  /** Stores a new subscription. */
  createWebhook(input: CreateWebhookInput): Promise<WebhookRecord>
  /** A subscription of a bot by id. */
  getWebhook(botId: string, id: string): Promise<WebhookRecord | undefined>
  /** The bot's subscriptions, oldest first. */
  listWebhooks(botId: string, query: IdPageQuery): Promise<IdPage<WebhookRecord>>
  /** How many subscriptions the bot has. */
  countWebhooks(botId: string): Promise<number>
  /** Changes a subscription; `undefined` when the bot has none with this id. */
  updateWebhook(botId: string, id: string, patch: WebhookPatch): Promise<WebhookRecord | undefined>
  /** Deletes a subscription and its deliveries; false when there was none. */
  deleteWebhook(botId: string, id: string): Promise<boolean>
  /** The enabled subscriptions of a bot that want this type (their `types` empty or naming it). */
  subscribers(botId: string, type: string): Promise<WebhookRecord[]>
  /** Records a pending delivery (id `whd_` + ULID). */
  addDelivery(input: AddDeliveryInput): Promise<DeliveryRecord>
  /** A delivery by id. */
  getDelivery(id: string): Promise<DeliveryRecord | undefined>
  /** Changes a delivery; `undefined` when it is gone (its subscription was deleted). */
  updateDelivery(id: string, patch: DeliveryPatch): Promise<DeliveryRecord | undefined>
  /** The deliveries of a subscription, newest first. */
  listDeliveries(webhookId: string, query: IdPageQuery): Promise<IdPage<DeliveryRecord>>
}
