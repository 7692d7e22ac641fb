import { z } from 'zod'
import { StorageEventTypeSchema } from './storage-events.js'

/** Most subscriptions one bot may have. */
export const WEBHOOKS_PER_BOT = 50

/** States of a delivery: waiting to be sent or retried, delivered, or given up on (kept for replay). */
export const deliveryStatuses = ['pending', 'succeeded', 'failed'] as const

/**
 * A webhook URL: `http:` or `https:`, at most 2048 characters.
 *
 * @example
 * ```ts
 * WebhookUrlSchema.parse('https://bot.example.com/events')
 * ```
 */
export const WebhookUrlSchema = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const protocol = new URL(value).protocol
      return protocol === 'http:' || protocol === 'https:'
    } catch {
      return false
    }
  }, { error: (issue) => `expected an absolute http: or https: URL, received ${JSON.stringify(issue.input)}` })

/**
 * A subscription as listed: never its secret.
 *
 * @example
 * ```ts
 * WebhookSchema.parse({ id: 'wh_1', url: 'https://bot.example.com/events', types: [], description: '', disabled: false, createdAt, updatedAt })
 * ```
 */
export const WebhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  /** Empty: every type. */
  types: z.array(StorageEventTypeSchema),
  description: z.string(),
  disabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
})

/** A subscription. */
export type Webhook = z.output<typeof WebhookSchema>

/** A subscription with its secret (`whsec_` + base64 of 32 bytes): only in the answers of create and rotate. */
export const WebhookWithSecretSchema = WebhookSchema.extend({ secret: z.string() })

/** A subscription with its secret. */
export type WebhookWithSecret = z.output<typeof WebhookWithSecretSchema>

/**
 * One event sent (or to send) to one subscription.
 *
 * @example
 * ```ts
 * DeliverySchema.parse({ id: 'whd_1', eventId: 'evt_1', type: 'file.created', status: 'succeeded', attempts: 1, createdAt, updatedAt })
 * ```
 */
export const DeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  type: StorageEventTypeSchema,
  status: z.enum(deliveryStatuses),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().optional(),
  lastError: z.string().optional(),
  nextAttemptAt: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
})

/** A delivery. */
export type Delivery = z.output<typeof DeliverySchema>
