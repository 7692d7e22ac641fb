/** A subscription as stored: its secrets included (the routes never list them). */
export interface WebhookRecord {
  id: string
  botId: string
  url: string
  /** Empty: every type. */
  types: string[]
  description: string
  disabled: boolean
  /** `whsec_` + base64 of 32 random bytes. */
  secret: string
  /** The secret before the last rotation, still signing until `previousSecretUntil`. */
  previousSecret: string | null
  previousSecretUntil: string | null
  createdAt: string
  updatedAt: string
}

/** What `createWebhook` stores. */
export interface CreateWebhookInput {
  botId: string
  url: string
  types: string[]
  description: string
  secret: string
}

/** What `updateWebhook` changes (absent: unchanged). */
export interface WebhookPatch {
  url?: string
  types?: string[]
  description?: string
  disabled?: boolean
  secret?: string
  previousSecret?: string | null
  previousSecretUntil?: string | null
}

/** States of a delivery. */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed'

/** One event for one subscription, with the exact body it is signed and sent with. */
export interface DeliveryRecord {
  id: string
  webhookId: string
  botId: string
  eventId: string
  type: string
  /** The JSON body, byte for byte what every attempt sends. */
  body: string
  status: DeliveryStatus
  attempts: number
  lastStatusCode: number | null
  lastError: string | null
  nextAttemptAt: string | null
  createdAt: string
  updatedAt: string
}

/** What `addDelivery` stores: a pending delivery due at `nextAttemptAt`. */
export interface AddDeliveryInput {
  webhookId: string
  botId: string
  eventId: string
  type: string
  body: string
}

/** What `updateDelivery` changes (absent: unchanged). */
export interface DeliveryPatch {
  status?: DeliveryStatus
  attempts?: number
  lastStatusCode?: number | null
  lastError?: string | null
  nextAttemptAt?: string | null
}

/** One page of a list: `next` is the cursor of the following page (the last id), absent on the last one. */
export interface IdPage<T> {
  items: T[]
  next?: string
}

/** Where a page starts and how long it is. */
export interface IdPageQuery {
  pageSize: number
  /** The `next` of the previous page. */
  after?: string
}
