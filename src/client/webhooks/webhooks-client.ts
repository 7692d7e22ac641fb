import * as ops from '../../api/webhooks/operations.js'
import type { CallOptions } from '../http/call-options.js'
import type { ClientInput, ClientOutput } from '../operation-types.js'
import { TablesClient } from '../tables/tables-client.js'

/**
 * The Webhooks API (storage event subscriptions and their deliveries, docs/storage-events.md).
 * Every method takes the flat input object and, optionally, call options (`signal`, `timeout`, `headers`).
 */
export abstract class WebhooksClient extends TablesClient {
  /**
   * Subscribes a URL to the bot's storage events; only this answer carries the secret.
   *
   * @example
   * ```ts
   * const { webhook } = await client.createWebhook({ url: 'https://bot.example.com/events', types: ['file.indexed'] })
   * ```
   */
  public readonly createWebhook = (input: ClientInput<typeof ops.createWebhook>, options?: CallOptions): Promise<ClientOutput<typeof ops.createWebhook>> =>
    this.call(ops.createWebhook, input, options)

  /**
   * Lists one page of the bot's subscriptions (never their secrets).
   *
   * @example
   * ```ts
   * const { webhooks } = await client.listWebhooks({})
   * ```
   */
  public readonly listWebhooks = (input: ClientInput<typeof ops.listWebhooks>, options?: CallOptions): Promise<ClientOutput<typeof ops.listWebhooks>> =>
    this.call(ops.listWebhooks, input, options)

  /**
   * Gets one subscription (without its secret).
   *
   * @example
   * ```ts
   * const { webhook } = await client.getWebhook({ id })
   * ```
   */
  public readonly getWebhook = (input: ClientInput<typeof ops.getWebhook>, options?: CallOptions): Promise<ClientOutput<typeof ops.getWebhook>> =>
    this.call(ops.getWebhook, input, options)

  /**
   * Changes a subscription's URL, types, description or `disabled`.
   *
   * @example
   * ```ts
   * await client.updateWebhook({ id, disabled: true })
   * ```
   */
  public readonly updateWebhook = (input: ClientInput<typeof ops.updateWebhook>, options?: CallOptions): Promise<ClientOutput<typeof ops.updateWebhook>> =>
    this.call(ops.updateWebhook, input, options)

  /**
   * Deletes a subscription and its deliveries.
   *
   * @example
   * ```ts
   * await client.deleteWebhook({ id })
   * ```
   */
  public readonly deleteWebhook = (input: ClientInput<typeof ops.deleteWebhook>, options?: CallOptions): Promise<ClientOutput<typeof ops.deleteWebhook>> =>
    this.call(ops.deleteWebhook, input, options)

  /**
   * Rotates the signing secret; the previous one keeps signing beside it for 24 hours.
   *
   * @example
   * ```ts
   * const { webhook } = await client.rotateWebhookSecret({ id })
   * ```
   */
  public readonly rotateWebhookSecret = (input: ClientInput<typeof ops.rotateWebhookSecret>, options?: CallOptions): Promise<ClientOutput<typeof ops.rotateWebhookSecret>> =>
    this.call(ops.rotateWebhookSecret, input, options)

  /**
   * Lists one page of a subscription's deliveries, newest first.
   *
   * @example
   * ```ts
   * const { deliveries } = await client.listWebhookDeliveries({ id })
   * ```
   */
  public readonly listWebhookDeliveries = (input: ClientInput<typeof ops.listWebhookDeliveries>, options?: CallOptions): Promise<ClientOutput<typeof ops.listWebhookDeliveries>> =>
    this.call(ops.listWebhookDeliveries, input, options)

  /**
   * Sends a delivery again now.
   *
   * @example
   * ```ts
   * await client.retryWebhookDelivery({ id, deliveryId })
   * ```
   */
  public readonly retryWebhookDelivery = (input: ClientInput<typeof ops.retryWebhookDelivery>, options?: CallOptions): Promise<ClientOutput<typeof ops.retryWebhookDelivery>> =>
    this.call(ops.retryWebhookDelivery, input, options)
}
