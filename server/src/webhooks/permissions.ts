import type { Principal } from '../http/principal.js'
import { ServiceError } from '../http/service-error.js'

/** What an operation does to a bot's subscriptions. */
export type WebhooksAccess = 'read' | 'manage'

/**
 * Who may: the bot's token and Developer, Manager, Administrator members manage; Viewers read (never secrets);
 * integrations and Billing Managers have no access.
 *
 * @example
 * ```ts
 * canAccessWebhooks(principal, 'manage')
 * ```
 */
export function canAccessWebhooks(principal: Principal, access: WebhooksAccess): boolean {
  if (principal.kind === 'bot') return true
  if (principal.kind !== 'member') return false
  switch (principal.role) {
    case 'developer':
    case 'manager':
    case 'administrator':
      return true
    case 'viewer':
      return access === 'read'
    default:
      return false
  }
}

/**
 * Throws `Forbidden` when the caller may not.
 *
 * @example
 * ```ts
 * requireWebhooksAccess(principal, 'read')
 * ```
 */
export function requireWebhooksAccess(principal: Principal, access: WebhooksAccess): void {
  if (canAccessWebhooks(principal, access)) return
  const who = principal.kind === 'member' ? `a ${principal.role}` : principal.kind === 'integration' ? 'an integration' : 'this caller'
  throw new ServiceError('Forbidden', `This token (${who}) may not ${access === 'read' ? 'read' : 'change'} the webhooks of bot "${principal.botId}"`)
}
