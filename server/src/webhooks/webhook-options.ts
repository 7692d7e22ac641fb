import type { WebhookHostPolicy } from './host-policy.js'
import type { DeliveryFetch } from './send-delivery.js'

/** How the service delivers storage events (`createApp({ webhooks })`; `botshelf serve` reads its settings). */
export interface WebhookOptions {
  /**
   * Waits before each retry, in milliseconds, or the setting's text (`5s,30s,2m`); after the last, a delivery is
   * `failed`. Default `5s,30s,2m,10m,30m,1h,3h,6h,12h,24h`.
   *
   * @example
   * ```ts
   * createApp({ memory: true, webhooks: { retries: [10, 10] } })
   * ```
   */
  retries?: ReadonlyArray<number> | string
  /**
   * Hosts subscriptions may call (`--webhook-hosts`); default any, loopback included.
   *
   * @example
   * ```ts
   * createApp({ memory: true, webhooks: { allowedHosts: ['hooks.example.com', '*.bots.example.com'] } })
   * ```
   */
  allowedHosts?: WebhookHostPolicy
  /**
   * How long an endpoint has to answer, in milliseconds. Default 10 000.
   *
   * @example
   * ```ts
   * createApp({ memory: true, webhooks: { timeoutMs: 2_000 } })
   * ```
   */
  timeoutMs?: number
  /**
   * Deliveries sent at once by this server. Default 16.
   *
   * @example
   * ```ts
   * createApp({ memory: true, webhooks: { concurrency: 32 } })
   * ```
   */
  concurrency?: number
  /**
   * Deliveries of one subscription in flight at once in this server: the rest wait their turn, so a slow
   * endpoint holds at most this many slots and never the others'. Default 2.
   *
   * @example
   * ```ts
   * createApp({ memory: true, webhooks: { perSubscription: 4 } })
   * ```
   */
  perSubscription?: number
  /**
   * How long the delivery runner waits between looks at the queue when nothing woke it, in ms. Default 500.
   *
   * @example
   * ```ts
   * createApp({ memory: true, webhooks: { pollMs: 50 } })
   * ```
   */
  pollMs?: number
  /**
   * The lease of a claimed delivery job (after a crash another server sends it once this passed), in ms.
   * Default 30 000.
   *
   * @example
   * ```ts
   * createApp({ memory: true, webhooks: { leaseMs: 1_000 } })
   * ```
   */
  leaseMs?: number
  /**
   * The HTTP client (the edge of the world): default the global `fetch`.
   *
   * @example
   * ```ts
   * createApp({ memory: true, webhooks: { fetch: (url, init) => fetch(url, init) } })
   * ```
   */
  fetch?: DeliveryFetch
}
