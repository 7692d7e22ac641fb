import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../../helpers/eventually.js'
import { verifyWebhook } from 'botshelf'
import { StorageEventSchema, storageEventPayloads, type StorageEventType } from 'botshelf/api'
import { Client } from 'botshelf/client'
import { startTestService, type TestService } from '../../helpers/service.js'
import { fetchUrl, uploadText } from '../../files/helpers.js'
import { startReceiver } from './receiver.js'

// One service and one receiver for the file; short retry schedule and poll injected (no real waits beyond them).
let service: TestService
let receiver: Awaited<ReturnType<typeof startReceiver>>

beforeAll(async () => {
  receiver = await startReceiver()
  service = await startTestService({ listen: true, jobs: { pollMs: 50 }, webhooks: { retries: [20, 20], pollMs: 50, timeoutMs: 5_000 } })
})

afterAll(async () => {
  await service?.close()
  await receiver?.close()
})

async function subscribe(path: string, body: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
  const res = await service.request('POST', '/v1/webhooks', { body: { url: `${receiver.url}${path}`, ...body } })
  expect(res.status).toBe(200)
  return res.body.webhook
}

async function verified(request: { headers: Record<string, string>; body: string }, secret: string): Promise<unknown> {
  return verifyWebhook({ payload: request.body, headers: request.headers, secret })
}

describe(`storage events (${process.env['BOTSHELF_TEST_BACKEND'] ?? 'sqlite'})`, () => {
  it('manages subscriptions: the secret only on create and rotate, roles, bad input named', async () => {
    const created = await service.request('POST', '/v1/webhooks', { body: { url: `${receiver.url}/crud`, types: ['file.created'], description: 'crud' } })
    expect(created.status).toBe(200)
    expect(created.body.webhook).toMatchObject({ url: `${receiver.url}/crud`, types: ['file.created'], description: 'crud', disabled: false })
    expect(created.body.webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const id = created.body.webhook.id
    const listed = await service.request('GET', '/v1/webhooks', { token: 'viewer' })
    expect(listed.status).toBe(200)
    expect(listed.text).not.toContain('whsec_')
    expect(listed.body.webhooks.map((webhook: { id: string }) => webhook.id)).toContain(id)
    expect((await service.request('GET', `/v1/webhooks/${id}`, { token: 'viewer' })).body.webhook).not.toHaveProperty('secret')
    expect((await service.request('POST', '/v1/webhooks', { token: 'viewer', body: { url: `${receiver.url}/x` } })).status).toBe(403)
    expect((await service.request('GET', '/v1/webhooks', { token: 'alpha' })).status).toBe(403)
    expect((await service.request('GET', '/v1/webhooks', { token: 'billing_manager' })).status).toBe(403)
    expect((await service.request('POST', '/v1/webhooks', { token: 'developer', body: { url: `${receiver.url}/dev` } })).status).toBe(200)
    const badUrl = await service.request('POST', '/v1/webhooks', { body: { url: 'ftp://example.com/x' } })
    expect(badUrl.status).toBe(400)
    expect(badUrl.body).toMatchObject({ type: 'InvalidPayload' })
    expect(badUrl.body.message).toContain('url')
    const badType = await service.request('POST', '/v1/webhooks', { body: { url: `${receiver.url}/x`, types: ['file.exploded'] } })
    expect(badType.status).toBe(400)
    expect(badType.body.metadata.issues[0]).toMatchObject({ path: 'types.0', received: '"file.exploded"' })
    expect((await service.request('GET', '/v1/webhooks/wh_missing')).body).toMatchObject({ type: 'ResourceNotFound' })
    const updated = await service.request('PUT', `/v1/webhooks/${id}`, { body: { disabled: true } })
    expect(updated.body.webhook).toMatchObject({ disabled: true })
    expect(updated.body.webhook).not.toHaveProperty('secret')
    expect((await service.request('DELETE', `/v1/webhooks/${id}`)).status).toBe(200)
    expect((await service.request('GET', `/v1/webhooks/${id}`)).status).toBe(404)
    // The same through botshelf's client.
    const client = new Client({ apiUrl: service.url, token: service.tokens.bot, botId: service.botId })
    const { webhook } = await client.createWebhook({ url: `${receiver.url}/client`, types: ['table.deleted'] })
    expect(webhook.secret).toMatch(/^whsec_/)
    expect((await client.listWebhooks({})).webhooks.find((listed) => listed.id === webhook.id)).not.toHaveProperty('secret')
    expect((await client.listWebhookDeliveries({ id: webhook.id })).deliveries).toEqual([])
    await client.deleteWebhook({ id: webhook.id })
  })

  it('delivers every storage event type once, signed, in the documented shape', async () => {
    const { id, secret } = await subscribe('/all')
    // Files: created (readable), indexed (searchable), indexing_failed, updated (metadata, content), deleted.
    const { file } = await uploadText(service, 'docs/guide.md', '# Refunds\n\nRefunds take five days.', { index: true })
    await uploadText(service, 'scan.bin', 'binary', { index: true, contentType: 'application/octet-stream' })
    await service.request('PUT', `/v1/files/${file.id}`, { body: { tags: { team: 'support' } } })
    // Tables: created, updated, rows created/updated/deleted, export, import, deleted.
    expect((await service.request('POST', '/v1/tables', { body: { name: 'ordersTable', schema: { type: 'object', properties: { total: { type: 'number' } } } } })).status).toBe(200)
    await service.request('PUT', '/v1/tables/ordersTable', { body: { tags: { team: 'sales' } } })
    const rows = await service.request('POST', '/v1/tables/ordersTable/rows', { body: { rows: [{ total: 1 }, { total: 2 }] } })
    expect(rows.status).toBe(200)
    const [first] = rows.body.rows
    await service.request('PUT', '/v1/tables/ordersTable/rows', { body: { rows: [{ id: first.id, total: 10 }] } })
    await service.request('POST', '/v1/tables/ordersTable/rows/delete', { body: { ids: [first.id] } })
    const exported = await service.request('GET', '/v1/tables/ordersTable/export', { query: { format: 'csv' } })
    expect(exported.status).toBe(200)
    const { file: csv } = await uploadText(service, 'orders.csv', 'total\n3\n4\n')
    const imported = await service.request('POST', '/v1/tables/ordersTable/import', { body: { fileId: csv.id } })
    expect(imported.status).toBe(200)
    const { file: broken } = await uploadText(service, 'broken.csv', 'nope\n"unterminated\n')
    await service.request('POST', '/v1/tables/ordersTable/import', { body: { fileId: broken.id } })

    const types = (): StorageEventType[] => receiver.on('/all').map((request) => request.json.type)
    const wanted: StorageEventType[] = [
      'file.created', 'file.updated', 'file.indexed', 'file.indexing_failed',
      'table.created', 'table.updated', 'table.rows.created', 'table.rows.updated', 'table.rows.deleted',
      'table.export.completed', 'table.import.completed', 'table.import.failed',
    ]
    await receiver.waitFor(() => wanted.every((type) => types().includes(type)), `every event type (got ${types().join(', ')})`)
    await service.request('DELETE', `/v1/files/${file.id}`)
    await service.request('DELETE', '/v1/tables/ordersTable')
    await receiver.waitFor(() => types().includes('file.deleted') && types().includes('table.deleted'), 'the deletions')

    const seen = new Set<string>()
    for (const request of receiver.on('/all')) {
      const body = await verified(request, secret)
      const event = StorageEventSchema.parse(body)
      expect(storageEventPayloads[event.type].safeParse(event.payload).success).toBe(true)
      expect(event).toMatchObject({ botId: service.botId, direction: 'incoming', state: {} })
      expect(request.headers['webhook-id']).toBe(event.id)
      expect(request.headers['content-type']).toBe('application/json')
      expect(event.preview.length).toBeGreaterThan(0)
      // Each event is delivered once.
      expect(seen.has(event.id)).toBe(false)
      seen.add(event.id)
    }
    const deleted = receiver.on('/all').find((request) => request.json.type === 'table.rows.deleted')!
    expect(deleted.json.payload).toEqual({ table: 'ordersTable', rows: [{ id: first.id }] })
    // The sender records a delivery's answer after the receiver has it: wait for the record, then check every one.
    const deliveries = await eventually(async () => {
      const listed = await service.request('GET', `/v1/webhooks/${id}/deliveries`, { token: 'viewer' })
      return listed.body.deliveries.some((delivery: { status: string }) => delivery.status === 'pending') ? undefined : (listed.body.deliveries as Array<{ status: string }>)
    }, 'every delivery recorded')
    expect(deliveries.every((delivery) => delivery.status === 'succeeded')).toBe(true)
    await service.request('DELETE', `/v1/webhooks/${id}`)
  })

  it('the file is downloadable at file.created and searchable at file.indexed', async () => {
    const { id } = await subscribe('/ready', { types: ['file.created', 'file.indexed'] })
    const checks: string[] = []
    const before = receiver.on('/ready').length
    const { file } = await uploadText(service, 'ready.md', 'The warranty lasts two years.', { index: true })
    await receiver.waitFor(() => receiver.on('/ready').length >= before + 2, 'file.created and file.indexed')
    for (const request of receiver.on('/ready').slice(before)) {
      if (request.json.type === 'file.created') {
        const content = await fetchUrl(service, (await service.request('GET', `/v1/files/${file.id}`)).body.file.url)
        checks.push(`created:${content.status}:${await content.text()}`)
      } else {
        const found = await service.request('GET', '/v1/files/search', { query: { query: 'warranty' } })
        checks.push(`indexed:${found.body.passages.some((passage: { file: { id: string } }) => passage.file.id === file.id)}`)
        expect(request.json.payload.file.status).toBe('indexing_completed')
      }
    }
    expect(checks.sort()).toEqual(['created:200:The warranty lasts two years.', 'indexed:true'])
    await service.request('DELETE', `/v1/webhooks/${id}`)
  })

  it('retries 500, 500, then 200: three attempts on the schedule, recorded on the delivery', async () => {
    receiver.script('/flaky', [500, 500, 200])
    const { id } = await subscribe('/flaky', { types: ['table.created'] })
    const made = await service.request('POST', '/v1/tables', { body: { name: 'flakyTable', schema: { type: 'object', properties: { n: { type: 'number' } } } } })
    expect(made.status, made.text).toBe(200)
    await receiver.waitFor(() => receiver.on('/flaky').length >= 3, 'three attempts')
    const flaky = receiver.on('/flaky')
    expect(new Set(flaky.map((request) => request.headers['webhook-id'])).size).toBe(1)
    const delivery = await eventually(async () => {
      const latest = (await service.request('GET', `/v1/webhooks/${id}/deliveries`)).body.deliveries[0]
      return latest?.status === 'succeeded' ? latest : undefined
    }, 'the delivery to succeed')
    expect(delivery).toMatchObject({ type: 'table.created', status: 'succeeded', attempts: 3, lastStatusCode: 200 })
    expect(flaky).toHaveLength(3)
    await service.request('DELETE', `/v1/webhooks/${id}`)
  })

  it('a refused upload and a rolled-back write emit nothing', async () => {
    const { id } = await subscribe('/nothing')
    expect((await service.request('PUT', '/v1/files', { token: 'viewer', body: { key: 'nope.txt', size: 1 } })).status).toBe(403)
    await service.request('POST', '/v1/tables', { body: { name: 'strictTable', schema: { type: 'object', properties: { n: { type: 'number' } } } } })
    const bad = await service.request('POST', '/v1/tables/strictTable/rows', { body: { rows: [{ n: 1 }, { n: 'not a number' }] } })
    expect(bad.status).toBe(400)
    // A later event arrives; nothing before it but table.created.
    await service.request('PUT', '/v1/tables/strictTable', { body: { tags: { done: 'yes' } } })
    await receiver.waitFor(() => receiver.on('/nothing').some((request) => request.json.type === 'table.updated'), 'the marker event')
    expect(receiver.on('/nothing').map((request) => request.json.type).sort()).toEqual(['table.created', 'table.updated'])
    await service.request('DELETE', `/v1/webhooks/${id}`)
  })

  it('a dead endpoint does not hold up another subscription', async () => {
    receiver.script('/dead', ['hang'])
    const dead = await subscribe('/dead', { types: ['table.rows.created'] })
    const live = await subscribe('/live', { types: ['table.rows.created'] })
    await service.request('POST', '/v1/tables', { body: { name: 'busyTable', schema: { type: 'object', properties: { n: { type: 'number' } } } } })
    for (let i = 0; i < 8; i++) await service.request('POST', '/v1/tables/busyTable/rows', { body: { rows: [{ n: i }] } })
    await receiver.waitFor(() => receiver.on('/live').length >= 8, 'the live subscription to get all eight')
    // The dead endpoint still holds its requests: at most its per-subscription share.
    expect(receiver.on('/dead').length).toBeLessThanOrEqual(2)
    await service.request('DELETE', `/v1/webhooks/${dead.id}`)
    await service.request('DELETE', `/v1/webhooks/${live.id}`)
  })

  it('rotation sends both signatures: the old and the new secret verify', async () => {
    const { id, secret: old } = await subscribe('/rotate', { types: ['table.created'] })
    const rotated = await service.request('POST', `/v1/webhooks/${id}/rotate-secret`)
    expect(rotated.status).toBe(200)
    const fresh = rotated.body.webhook.secret
    expect(fresh).not.toBe(old)
    await service.request('POST', '/v1/tables', { body: { name: 'rotatedTable', schema: { type: 'object', properties: { n: { type: 'number' } } } } })
    await receiver.waitFor(() => receiver.on('/rotate').length >= 1, 'a delivery after the rotation')
    const [request] = receiver.on('/rotate')
    expect(request!.headers['webhook-signature']!.split(' ')).toHaveLength(2)
    await expect(verified(request!, old)).resolves.toMatchObject({ type: 'table.created' })
    await expect(verified(request!, fresh)).resolves.toMatchObject({ type: 'table.created' })
    const retried = await service.request('POST', `/v1/webhooks/${id}/deliveries/${(await service.request('GET', `/v1/webhooks/${id}/deliveries`)).body.deliveries[0].id}/retry`)
    expect(retried.status).toBe(200)
    await receiver.waitFor(() => receiver.on('/rotate').length >= 2, 'the replay')
    expect(receiver.on('/rotate')[1]!.headers['webhook-id']).toBe(request!.headers['webhook-id'])
  })
})
