import { BotshelfError } from 'botshelf/api'

/**
 * Which hosts a deployment may call: `undefined` or `['*']` any (the default, loopback included), else a list of
 * host names, `*.example.com` for a domain's sub-hosts, or IP literals (docs/security.md "Webhook targets").
 *
 * @example
 * ```ts
 * const allowed: WebhookHostPolicy = ['hooks.example.com', '*.bots.example.com']
 * ```
 */
export type WebhookHostPolicy = ReadonlyArray<string> | undefined

/**
 * Whether a URL's host is allowed by the policy.
 *
 * @example
 * ```ts
 * hostAllowed(new URL('https://a.bots.example.com/x'), ['*.bots.example.com']) // true
 * ```
 */
export function hostAllowed(url: URL, policy: WebhookHostPolicy): boolean {
  if (policy === undefined || policy.includes('*')) return true
  const host = url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1')
  return policy.some((entry) => {
    const rule = entry.toLowerCase().trim()
    return rule.startsWith('*.') ? host.endsWith(rule.slice(1)) && host.length > rule.length - 1 : host === rule
  })
}

/**
 * Throws `InvalidPayload` naming the field when the policy refuses the URL's host.
 *
 * @example
 * ```ts
 * assertHostAllowed('url', 'http://10.0.0.5/hook', ['hooks.example.com'])
 * ```
 */
export function assertHostAllowed(field: string, url: string, policy: WebhookHostPolicy): void {
  const parsed = new URL(url)
  if (hostAllowed(parsed, policy)) return
  throw new BotshelfError(
    'InvalidPayload',
    'WEBHOOK_HOST_NOT_ALLOWED',
    `${field}: this deployment may only call ${policy!.join(', ')} (--webhook-hosts); received host ${JSON.stringify(parsed.hostname)}`,
  )
}

/**
 * Reads `--webhook-hosts` / `BOTSHELF_WEBHOOK_HOSTS`: comma-separated hosts, `*` (or absent) for any.
 *
 * @example
 * ```ts
 * parseHostPolicy('hooks.example.com,*.bots.example.com')
 * ```
 */
export function parseHostPolicy(text: string | undefined): WebhookHostPolicy {
  if (text === undefined || text.trim() === '' || text.trim() === '*') return undefined
  return text.split(',').map((part) => part.trim()).filter((part) => part !== '')
}
