import { z } from 'zod'
import type { BackendPorts } from '../store/index.js'
import { enqueueJob, type JobSpec } from '../jobs/index.js'
import { toStorageEvent, type StorageEventDraft } from './storage-event.js'

/** The job that sends one delivery: its kind and payload (the handler is made from the delivery options). */
export const deliverWebhookSpec = {
  kind: 'webhooks.deliver',
  // `attempts`: the delivery's attempts when queued; a job that finds another count is stale (a retry overtook it).
  payload: z.object({ deliveryId: z.string(), attempts: z.number().int().min(0) }),
  // The schedule is the delivery's own (the handler queues the next attempt); a crash mid-send retries the job.
  retry: { maxAttempts: 5 },
} satisfies JobSpec<{ deliveryId: string; attempts: number }>

/**
 * Queues the job that sends a delivery, inside the caller's transaction.
 *
 * @example
 * ```ts
 * await queueDeliveryAttempt(tx, delivery.id, 0, new Date(Date.now() + 5_000))
 * ```
 */
export async function queueDeliveryAttempt(tx: Pick<BackendPorts, 'jobs'>, deliveryId: string, attempts: number, runAt?: Date): Promise<void> {
  await enqueueJob(tx.jobs, deliverWebhookSpec, { payload: { deliveryId, attempts }, ...(runAt ? { runAt } : {}) })
}

/**
 * The outbox (decision 1411): records storage events inside the transaction of the change they report, as one
 * delivery row and one queued delivery job per subscription that wants the type. They commit or roll back with
 * the change, so a refused or rolled-back write emits nothing and a committed one is delivered even after a crash.
 * A bot without subscriptions costs one indexed read. Returns how many deliveries were queued (wake the
 * delivery runner after the commit when more than 0).
 *
 * @example
 * ```ts
 * const queued = await backend.transaction(async (tx) => {
 *   const { file } = await tx.files.completeUpload(id, version, written)
 *   return recordStorageEvents(tx, [storageEventDraft('file.created', file.botId, { file: wire }, `file ${file.key} created`)], backend.now())
 * })
 * ```
 */
export async function recordStorageEvents(tx: Pick<BackendPorts, 'webhooks' | 'jobs'>, drafts: ReadonlyArray<StorageEventDraft>, now: Date): Promise<number> {
  let queued = 0
  const subscribersByBot = new Map<string, Awaited<ReturnType<BackendPorts['webhooks']['subscribers']>>>()
  for (const draft of drafts) {
    // One read per bot and type is enough within a transaction.
    const key = `${draft.botId}\n${draft.type}`
    let targets = subscribersByBot.get(key)
    if (!targets) {
      targets = await tx.webhooks.subscribers(draft.botId, draft.type)
      subscribersByBot.set(key, targets)
    }
    if (targets.length === 0) continue
    const event = toStorageEvent(draft, now)
    const body = JSON.stringify(event)
    for (const webhook of targets) {
      const delivery = await tx.webhooks.addDelivery({ webhookId: webhook.id, botId: draft.botId, eventId: event.id, type: draft.type, body })
      await queueDeliveryAttempt(tx, delivery.id, 0)
      queued++
    }
  }
  return queued
}
