import type { Logger } from 'botshelf/api'
import { defineJob, type JobDefinition } from '../jobs/index.js'
import type { Backend, DeliveryRecord } from '../store/index.js'
import type { DeliveryMetrics } from './delivery-metrics.js'
import { hostAllowed, type WebhookHostPolicy } from './host-policy.js'
import { deliverWebhookSpec, queueDeliveryAttempt } from './record-events.js'
import { sendAttempt, type AttemptResult, type DeliveryFetch } from './send-delivery.js'
import { deliveryHeaders, signingSecrets } from './sign-delivery.js'

/** What the delivery job runs with. */
export interface DeliverJobDeps {
  readonly backend: Backend
  readonly logger: Pick<Logger, 'log'>
  readonly metrics: DeliveryMetrics
  readonly retries: ReadonlyArray<number>
  readonly allowedHosts: WebhookHostPolicy
  readonly timeoutMs: number
  readonly perSubscription: number
  readonly fetch: DeliveryFetch
}

// A delivery of a subscription already at its in-flight limit in this server waits this long before it looks again.
const WAIT_TURN_MS = 200

/**
 * The job that sends one delivery attempt (decision 1412): sign, POST, record the outcome; on a failure, queue the
 * next attempt at the schedule's next delay in the same transaction as the record, or mark it `failed` after
 * the last. Each delivery is its own job and a subscription holds at most `perSubscription` slots, so one slow or
 * dead endpoint never delays another subscription's deliveries.
 *
 * @example
 * ```ts
 * const runner = new JobRunner({ queue: backend.jobs, jobs: [deliverWebhookJob(deps)] })
 * ```
 */
export function deliverWebhookJob(deps: DeliverJobDeps): JobDefinition<{ deliveryId: string; attempts: number }> {
  const inFlight = new Map<string, number>()
  return defineJob({
    ...deliverWebhookSpec,
    async run({ payload, signal }) {
      const { backend } = deps
      const delivery = await backend.webhooks.getDelivery(payload.deliveryId)
      if (!delivery || delivery.status !== 'pending' || delivery.attempts !== payload.attempts) return
      const webhook = await backend.webhooks.getWebhook(delivery.botId, delivery.webhookId)
      if (!webhook) return
      const busy = inFlight.get(webhook.id) ?? 0
      if (busy >= deps.perSubscription) {
        await queueDeliveryAttempt(backend, delivery.id, delivery.attempts, new Date(backend.now().getTime() + WAIT_TURN_MS))
        return
      }
      inFlight.set(webhook.id, busy + 1)
      let result: AttemptResult
      try {
        if (webhook.disabled) result = { ok: false, error: 'the subscription is disabled' }
        else if (!hostAllowed(new URL(webhook.url), deps.allowedHosts)) result = { ok: false, error: `host ${new URL(webhook.url).hostname} is not allowed by --webhook-hosts` }
        else {
          const headers = await deliveryHeaders(delivery.eventId, delivery.body, signingSecrets(webhook, backend.now()), backend.now())
          result = await sendAttempt(deps.fetch, webhook.url, headers, delivery.body, deps.timeoutMs, signal)
        }
      } finally {
        const left = (inFlight.get(webhook.id) ?? 1) - 1
        if (left <= 0) inFlight.delete(webhook.id)
        else inFlight.set(webhook.id, left)
      }
      await recordOutcome(deps, delivery, result, webhook.disabled)
    },
  })
}

async function recordOutcome(deps: DeliverJobDeps, delivery: DeliveryRecord, result: AttemptResult, disabled: boolean): Promise<void> {
  const { backend } = deps
  const now = backend.now()
  const attempts = delivery.attempts + 1
  const common = { attempts, lastStatusCode: result.statusCode ?? null, lastError: result.ok ? null : (result.error ?? null) }
  if (result.ok) {
    await backend.webhooks.updateDelivery(delivery.id, { ...common, status: 'succeeded', nextAttemptAt: null })
    deps.metrics.attempt(delivery.type, 'succeeded', (now.getTime() - Date.parse(delivery.createdAt)) / 1000)
    return
  }
  const delay = disabled ? undefined : deps.retries[attempts - 1]
  if (delay === undefined) {
    await backend.webhooks.updateDelivery(delivery.id, { ...common, status: 'failed', nextAttemptAt: null })
    deps.metrics.attempt(delivery.type, 'failed')
    deps.logger.log('warn', 'webhook delivery failed', { deliveryId: delivery.id, webhookId: delivery.webhookId, eventId: delivery.eventId, type: delivery.type, attempts, error: common.lastError })
    return
  }
  const runAt = new Date(now.getTime() + delay)
  await backend.transaction(async (tx) => {
    await tx.webhooks.updateDelivery(delivery.id, { ...common, status: 'pending', nextAttemptAt: runAt.toISOString() })
    await queueDeliveryAttempt(tx, delivery.id, attempts, runAt)
  })
  deps.metrics.attempt(delivery.type, 'retried')
  deps.logger.log('info', 'webhook delivery attempt failed; retrying', { deliveryId: delivery.id, webhookId: delivery.webhookId, type: delivery.type, attempts, error: common.lastError, nextAttemptAt: runAt.toISOString() })
}
