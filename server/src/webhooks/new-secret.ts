import { randomBytes } from 'node:crypto'
import { SECRET_PREFIX } from 'botshelf/api'

/** How long the previous secret keeps signing after a rotation. */
export const PREVIOUS_SECRET_HOURS = 24

/**
 * A new signing secret: `whsec_` + base64 of 32 random bytes.
 *
 * @example
 * ```ts
 * newWebhookSecret() // 'whsec_3q2+7w...'
 * ```
 */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64')
}
