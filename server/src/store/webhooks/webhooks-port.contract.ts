import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Backend } from '../backend.js'
import type { Clock } from '../clock.js'

/**
 * The `WebhooksPort` contract, run against every backend by `contracts.test.ts`: subscriptions by bot, filtering
 * by type, one delivery per (subscription, event), newest-first pages, rollback with the transaction, cascade.
 *
 * @example
 * ```ts
 * describeWebhooksPortContract('sqlite-memory', async (now) => ({ backend: await openSqliteBackend({ memory: true, now }), close }))
 * ```
 */
export function describeWebhooksPortContract(name: string, open: (now: Clock) => Promise<{ backend: Backend; close(): Promise<void> }>): void {
  describe(`WebhooksPort contract: ${name}`, () => {
    let backend: Backend
    let close: () => Promise<void>
    let clock = Date.parse('2026-03-02T00:00:00.000Z')
    beforeEach(async () => {
      const opened = await open(() => new Date((clock += 1)))
      backend = opened.backend
      close = opened.close
    })
    afterEach(async () => close())

    const input = (botId: string, types: string[] = []) => ({ botId, url: 'http://127.0.0.1:9/hook', types, description: 'd', secret: 'whsec_AAAA' })

    it('keeps subscriptions per bot, filters subscribers by type, updates and deletes', async () => {
      const all = await backend.webhooks.createWebhook(input('bot-a'))
      const files = await backend.webhooks.createWebhook(input('bot-a', ['file.created']))
      await backend.webhooks.createWebhook(input('bot-b'))
      expect(all).toMatchObject({ botId: 'bot-a', types: [], disabled: false, previousSecret: null })
      expect(await backend.webhooks.countWebhooks('bot-a')).toBe(2)
      expect((await backend.webhooks.subscribers('bot-a', 'file.created')).map((w) => w.id)).toEqual([all.id, files.id])
      expect((await backend.webhooks.subscribers('bot-a', 'table.created')).map((w) => w.id)).toEqual([all.id])
      expect(await backend.webhooks.getWebhook('bot-b', all.id)).toBeUndefined()
      const disabled = await backend.webhooks.updateWebhook('bot-a', all.id, { disabled: true, types: ['table.created'] })
      expect(disabled).toMatchObject({ disabled: true, types: ['table.created'] })
      expect(await backend.webhooks.subscribers('bot-a', 'table.created')).toEqual([])
      expect(await backend.webhooks.updateWebhook('bot-b', all.id, { disabled: false })).toBeUndefined()
      const first = await backend.webhooks.listWebhooks('bot-a', { pageSize: 1 })
      expect(first.items.map((w) => w.id)).toEqual([all.id])
      expect((await backend.webhooks.listWebhooks('bot-a', { pageSize: 1, after: first.next! })).items.map((w) => w.id)).toEqual([files.id])
      expect(await backend.webhooks.deleteWebhook('bot-b', all.id)).toBe(false)
      expect(await backend.webhooks.deleteWebhook('bot-a', all.id)).toBe(true)
      expect(await backend.webhooks.countWebhooks('bot-a')).toBe(1)
    })

    it('records one delivery per subscription and event, lists newest first, rolls back with its transaction, goes with its subscription', async () => {
      const webhook = await backend.webhooks.createWebhook(input('bot-a'))
      const event = { webhookId: webhook.id, botId: 'bot-a', type: 'file.created', body: '{"id":"evt_1"}' }
      const one = await backend.webhooks.addDelivery({ ...event, eventId: 'evt_1' })
      const again = await backend.webhooks.addDelivery({ ...event, eventId: 'evt_1' })
      expect(again.id).toBe(one.id)
      const two = await backend.webhooks.addDelivery({ ...event, eventId: 'evt_2' })
      await expect(
        backend.transaction(async (tx) => {
          await tx.webhooks.addDelivery({ ...event, eventId: 'evt_rolled_back' })
          throw new Error('refused')
        }),
      ).rejects.toThrow('refused')
      const page = await backend.webhooks.listDeliveries(webhook.id, { pageSize: 10 })
      expect(page.items.map((d) => d.eventId)).toEqual(['evt_2', 'evt_1'])
      const updated = await backend.webhooks.updateDelivery(two.id, { status: 'failed', attempts: 3, lastStatusCode: 500, lastError: 'the endpoint answered 500', nextAttemptAt: null })
      expect(updated).toMatchObject({ status: 'failed', attempts: 3, lastStatusCode: 500, body: '{"id":"evt_1"}' })
      await backend.webhooks.deleteWebhook('bot-a', webhook.id)
      expect(await backend.webhooks.getDelivery(one.id)).toBeUndefined()
    })
  })
}
