import { z } from 'zod'
import { defineOperation } from '../operation.js'
import { ListMetaSchema } from '../pagination.js'
import { StorageEventTypeSchema } from './storage-events.js'
import { DeliverySchema, WebhookSchema, WebhookUrlSchema, WebhookWithSecretSchema } from './webhook.js'

const IdParams = z.object({ id: z.string().min(1) })
const TypesSchema = z.array(StorageEventTypeSchema).max(50)
const DescriptionSchema = z.string().max(500)

/** Pagination of the webhook lists: `nextToken`, `pageSize` 1 to 100 (default 20). */
const PageQuery = z.strictObject({ nextToken: z.string().optional(), pageSize: z.number().int().min(1).max(100).optional() })

/**
 * `POST /v1/webhooks`: subscribes a URL to the bot's storage events; the answer alone carries the secret.
 *
 * @example
 * ```ts
 * const { webhook } = await client.createWebhook({ url: 'https://bot.example.com/events', types: ['file.indexed'] })
 * ```
 */
export const createWebhook = defineOperation({
  name: 'createWebhook',
  method: 'POST',
  path: '/v1/webhooks',
  summary: 'Subscribe a URL to storage events (the answer alone carries the secret)',
  body: z.strictObject({ url: WebhookUrlSchema, types: TypesSchema.optional(), description: DescriptionSchema.optional() }),
  response: z.object({ webhook: WebhookWithSecretSchema }),
})

/**
 * `GET /v1/webhooks`: the bot's subscriptions, oldest first, without secrets.
 *
 * @example
 * ```ts
 * const { webhooks } = await client.listWebhooks({})
 * ```
 */
export const listWebhooks = defineOperation({
  name: 'listWebhooks',
  method: 'GET',
  path: '/v1/webhooks',
  summary: 'List the storage event subscriptions (no secrets)',
  query: PageQuery,
  response: z.object({ webhooks: z.array(WebhookSchema), meta: ListMetaSchema }),
})

/**
 * `GET /v1/webhooks/{id}`: one subscription, without its secret.
 *
 * @example
 * ```ts
 * const { webhook } = await client.getWebhook({ id })
 * ```
 */
export const getWebhook = defineOperation({
  name: 'getWebhook',
  method: 'GET',
  path: '/v1/webhooks/{id}',
  summary: 'Get a storage event subscription',
  params: IdParams,
  response: z.object({ webhook: WebhookSchema }),
})

/**
 * `PUT /v1/webhooks/{id}`: changes the URL, types, description or `disabled`.
 *
 * @example
 * ```ts
 * await client.updateWebhook({ id, disabled: true })
 * ```
 */
export const updateWebhook = defineOperation({
  name: 'updateWebhook',
  method: 'PUT',
  path: '/v1/webhooks/{id}',
  summary: 'Change a storage event subscription',
  params: IdParams,
  body: z.strictObject({ url: WebhookUrlSchema.optional(), types: TypesSchema.optional(), description: DescriptionSchema.optional(), disabled: z.boolean().optional() }),
  response: z.object({ webhook: WebhookSchema }),
})

/**
 * `DELETE /v1/webhooks/{id}`: removes a subscription and its deliveries.
 *
 * @example
 * ```ts
 * await client.deleteWebhook({ id })
 * ```
 */
export const deleteWebhook = defineOperation({
  name: 'deleteWebhook',
  method: 'DELETE',
  path: '/v1/webhooks/{id}',
  summary: 'Delete a storage event subscription',
  params: IdParams,
  response: z.object({}),
})

/**
 * `POST /v1/webhooks/{id}/rotate-secret`: a new secret; the old one keeps signing beside it for 24 hours.
 *
 * @example
 * ```ts
 * const { webhook } = await client.rotateWebhookSecret({ id })
 * ```
 */
export const rotateWebhookSecret = defineOperation({
  name: 'rotateWebhookSecret',
  method: 'POST',
  path: '/v1/webhooks/{id}/rotate-secret',
  summary: 'Rotate the signing secret (the old one keeps verifying for 24 hours)',
  params: IdParams,
  response: z.object({ webhook: WebhookWithSecretSchema }),
})

/**
 * `GET /v1/webhooks/{id}/deliveries`: the subscription's deliveries, newest first.
 *
 * @example
 * ```ts
 * const { deliveries } = await client.listWebhookDeliveries({ id })
 * ```
 */
export const listWebhookDeliveries = defineOperation({
  name: 'listWebhookDeliveries',
  method: 'GET',
  path: '/v1/webhooks/{id}/deliveries',
  summary: 'List the deliveries of a subscription, newest first',
  params: IdParams,
  query: PageQuery,
  response: z.object({ deliveries: z.array(DeliverySchema), meta: ListMetaSchema }),
})

/**
 * `POST /v1/webhooks/{id}/deliveries/{deliveryId}/retry`: sends a delivery again now.
 *
 * @example
 * ```ts
 * await client.retryWebhookDelivery({ id, deliveryId })
 * ```
 */
export const retryWebhookDelivery = defineOperation({
  name: 'retryWebhookDelivery',
  method: 'POST',
  path: '/v1/webhooks/{id}/deliveries/{deliveryId}/retry',
  summary: 'Send a delivery again now',
  params: z.object({ id: z.string().min(1), deliveryId: z.string().min(1) }),
  response: z.object({ delivery: DeliverySchema }),
})

/** Every operation of the Webhooks API. */
export const webhooksOperations = [
  createWebhook,
  listWebhooks,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  rotateWebhookSecret,
  listWebhookDeliveries,
  retryWebhookDelivery,
] as const
