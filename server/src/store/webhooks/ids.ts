import { newUlid } from '../ulid.js'

/**
 * A subscription id: `wh_` + ULID.
 *
 * @example
 * ```ts
 * newWebhookId(new Date()) // 'wh_01K86HD0D5T3HFCGBEKQJFNKAD'
 * ```
 */
export function newWebhookId(now: Date): string {
  return `wh_${newUlid(now)}`
}

/**
 * A delivery id: `whd_` + ULID (sortable: newest first is descending id).
 *
 * @example
 * ```ts
 * newDeliveryId(new Date()) // 'whd_01K86HD0D5T3HFCGBEKQJFNKAD'
 * ```
 */
export function newDeliveryId(now: Date): string {
  return `whd_${newUlid(now)}`
}
