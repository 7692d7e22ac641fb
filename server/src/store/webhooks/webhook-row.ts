import type { DeliveryPatch, DeliveryRecord, DeliveryStatus, WebhookPatch, WebhookRecord } from './types.js'

/** A `webhooks` row as both engines return it. */
export interface WebhookRow {
  id: string
  bot_id: string
  url: string
  types_json: string
  description: string
  disabled: number | boolean
  secret: string
  previous_secret: string | null
  previous_secret_until: string | null
  created_at: string
  updated_at: string
}

/** A `webhook_deliveries` row as both engines return it. */
export interface DeliveryRow {
  id: string
  webhook_id: string
  bot_id: string
  event_id: string
  type: string
  body: string
  status: string
  attempts: number
  last_status_code: number | null
  last_error: string | null
  next_attempt_at: string | null
  created_at: string
  updated_at: string
}

/**
 * The record of a `webhooks` row.
 *
 * @example
 * ```ts
 * const record = webhookRowToRecord(row)
 * ```
 */
export function webhookRowToRecord(row: WebhookRow): WebhookRecord {
  return {
    id: row.id,
    botId: row.bot_id,
    url: row.url,
    types: JSON.parse(row.types_json) as string[],
    description: row.description,
    disabled: row.disabled === true || row.disabled === 1,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretUntil: row.previous_secret_until,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/**
 * The record of a `webhook_deliveries` row.
 *
 * @example
 * ```ts
 * const record = deliveryRowToRecord(row)
 * ```
 */
export function deliveryRowToRecord(row: DeliveryRow): DeliveryRecord {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    botId: row.bot_id,
    eventId: row.event_id,
    type: row.type,
    body: row.body,
    status: row.status as DeliveryStatus,
    attempts: Number(row.attempts),
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error,
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/**
 * Whether a subscription wants a type: enabled, and its types empty or naming it.
 *
 * @example
 * ```ts
 * wantsType(record, 'file.created')
 * ```
 */
export function wantsType(record: WebhookRecord, type: string): boolean {
  return !record.disabled && (record.types.length === 0 || record.types.includes(type))
}

/**
 * One page from `pageSize + 1` rows read: the extra row only says there is a next page.
 *
 * @example
 * ```ts
 * idPage(rows.map(webhookRowToRecord), 20)
 * ```
 */
export function idPage<T extends { id: string }>(items: T[], pageSize: number): { items: T[]; next?: string } {
  if (items.length <= pageSize) return { items }
  const kept = items.slice(0, pageSize)
  return { items: kept, next: kept[kept.length - 1]!.id }
}

/** The stored column of each field a subscription patch may change (both engines name them alike). */
export const webhookColumns: Record<keyof WebhookPatch, string> = {
  url: 'url',
  types: 'types_json',
  description: 'description',
  disabled: 'disabled',
  secret: 'secret',
  previousSecret: 'previous_secret',
  previousSecretUntil: 'previous_secret_until',
}

/** The stored column of each field a delivery patch may change. */
export const deliveryColumns: Record<keyof DeliveryPatch, string> = {
  status: 'status',
  attempts: 'attempts',
  lastStatusCode: 'last_status_code',
  lastError: 'last_error',
  nextAttemptAt: 'next_attempt_at',
}
