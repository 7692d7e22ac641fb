import { describe, expect, it } from 'vitest'
import { storageEventTypes, type StorageEventType } from '../api/webhooks/storage-events.js'
import { createRuntime, defineHook } from '../runtime/index.js'
import { createWebhookHandler } from './create-webhook-handler.js'
import { signWebhookPayload } from './signature.js'

const secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64')
const at = '2026-11-28T12:00:00.000Z'
const file = {
  id: 'file_1', botId: 'bot_1', key: 'docs/a.md', url: 'http://127.0.0.1:3000/files/x', size: 3, contentType: 'text/markdown',
  tags: {}, metadata: {}, createdAt: at, updatedAt: at, accessPolicies: [], index: true, status: 'indexing_completed', owner: { type: 'bot', id: 'bot_1' },
}
const table = { id: 'tbl_1', name: 'ordersTable', schema: { type: 'object', properties: {}, additionalProperties: true }, createdAt: at, updatedAt: at }
const job = { id: 'tjob_1', botId: 'bot_1', tableId: 'tbl_1', type: 'import', status: 'completed', progress: 1, inputFileId: 'file_1', outputFileId: null, createdAt: at, updatedAt: at }

/** A payload of each type, as the service sends it. */
function payloadOf(type: StorageEventType): Record<string, unknown> {
  if (type.startsWith('file.')) return { file }
  if (type === 'table.rows.deleted') return { table: 'ordersTable', rows: [{ id: 1 }] }
  if (type.startsWith('table.rows.')) return { table: 'ordersTable', rows: [{ id: 1, total: 2, computed: {}, createdAt: at, updatedAt: at }] }
  if (type.startsWith('table.import.') || type.startsWith('table.export.')) return { job: { ...job, type: type.split('.')[1] } }
  if (type === 'table.row.compute') return { table: 'ordersTable', row: { id: 1, total: 2, computed: {}, createdAt: at, updatedAt: at }, column: 'label', workflowId: 'labelOrder' }
  return { table }
}

describe('the runtime receives storage events', () => {
  it('verifies, validates and dispatches every storage event type to a hook that names it', async () => {
    const seen: string[] = []
    const hook = defineHook({ name: 'all-storage', point: 'afterIncoming', types: [...storageEventTypes], handler: ({ event }) => void seen.push(event.type) })
    const handler = createWebhookHandler({ runtime: createRuntime({ hooks: [hook] }), secret, now: () => new Date(at) })
    for (const type of storageEventTypes) {
      const body = JSON.stringify({ id: `evt_${type}`, botId: 'bot_1', type, direction: 'incoming', createdOn: at, payload: payloadOf(type), preview: type, state: {} })
      const timestamp = Math.floor(Date.parse(at) / 1000)
      const signature = await signWebhookPayload({ id: `evt_${type}`, timestamp, payload: body, secret })
      const response = await handler(
        new Request('http://bot.test/events', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'webhook-id': `evt_${type}`, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature },
          body,
        }),
      )
      expect(response.status, `${type}: ${await response.clone().text()}`).toBe(200)
    }
    expect(seen).toEqual([...storageEventTypes])
  })

  it('refuses a storage event whose payload does not fit its type, naming the field', async () => {
    const handler = createWebhookHandler({ runtime: createRuntime({ hooks: [] }), secret, now: () => new Date(at) })
    const body = JSON.stringify({ id: 'evt_bad', botId: 'bot_1', type: 'file.indexed', direction: 'incoming', createdOn: at, payload: { file: { id: 1 } }, preview: '', state: {} })
    const timestamp = Math.floor(Date.parse(at) / 1000)
    const signature = await signWebhookPayload({ id: 'evt_bad', timestamp, payload: body, secret })
    const response = await handler(new Request('http://bot.test/events', { method: 'POST', headers: { 'webhook-id': 'evt_bad', 'webhook-timestamp': String(timestamp), 'webhook-signature': signature }, body }))
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('payload.file')
  })
})
