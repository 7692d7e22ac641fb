// A file that expires (`expiresAt`) is deleted by the sweeper, and that deletion emits `file.deleted` like any other:
// through the real server and a real receiver, on the engine of the project, with a manual clock moving time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyWebhook } from 'botshelf'
import { StorageEventSchema } from 'botshelf/api'
import { createFilesFeature } from '../../../server/src/files/index.js'
import { EXPIRE_FILES_JOB } from '../../../server/src/files/expire-files-job.js'
import { eventually } from '../../helpers/eventually.js'
import { startTestService, type TestService } from '../../helpers/service.js'
import { manualClock, uploadText } from '../../files/helpers.js'
import { startReceiver } from './receiver.js'

let service: TestService
let receiver: Awaited<ReturnType<typeof startReceiver>>
const clock = manualClock(new Date().toISOString())

beforeAll(async () => {
  receiver = await startReceiver()
  service = await startTestService({
    listen: true,
    now: clock.now,
    features: [createFilesFeature({ expirySweepIntervalMs: 20 })],
    jobs: { pollMs: 20 },
    webhooks: { retries: [20, 20], pollMs: 20, timeoutMs: 5_000 },
  })
})

afterAll(async () => {
  await service?.close()
  await receiver?.close()
})

describe(`file expiry emits file.deleted (${process.env['BOTSHELF_TEST_BACKEND'] ?? 'sqlite'})`, () => {
  it('delivers file.deleted, signed, with the file as it was, once the clock passes expiresAt', async () => {
    const created = await service.request('POST', '/v1/webhooks', { body: { url: `${receiver.url}/expiry`, types: ['file.deleted'] } })
    expect(created.status).toBe(200)
    const { secret } = created.body.webhook
    const expiresAt = new Date(clock.now().getTime() + 60_000).toISOString()
    const { file } = await uploadText(service, 'temp/report.txt', 'short-lived', { expiresAt, tags: { kind: 'temp' } })
    const { file: stays } = await uploadText(service, 'stays.txt', 'forever')

    // Before the expiry a sweep has run and deleted nothing: no event.
    const backend = service.app.services.backend
    await eventually(async () => ((await backend.jobs.list({ kind: EXPIRE_FILES_JOB, state: 'completed' })).length >= 1 ? true : undefined), 'a completed sweep')
    expect(receiver.on('/expiry')).toEqual([])

    clock.advance(61_000)
    await receiver.waitFor(() => receiver.on('/expiry').length >= 1, 'file.deleted from the sweeper')
    const [request] = receiver.on('/expiry')
    const event = StorageEventSchema.parse(await verifyWebhook({ payload: request!.body, headers: request!.headers, secret }))
    expect(event).toMatchObject({ type: 'file.deleted', botId: service.botId, direction: 'incoming', state: {} })
    expect(request!.headers['webhook-id']).toBe(event.id)
    expect(event.payload).toMatchObject({ file: { id: file.id, key: 'temp/report.txt', expiresAt, tags: { kind: 'temp' } } })
    expect(event.preview).toContain('temp/report.txt')

    // Only the expired file, and one event: the subscription has exactly one delivery, sent once.
    expect(receiver.on('/expiry')).toHaveLength(1)
    expect((await service.request('GET', `/v1/files/${stays.id}`)).status).toBe(200)
    // The sender records the answer after the receiver has it: wait for the delivery to leave `pending`.
    const deliveries = await eventually(async () => {
      const { body } = await service.request('GET', `/v1/webhooks/${created.body.webhook.id}/deliveries`)
      return body.deliveries.some((delivery: { status: string }) => delivery.status === 'pending') ? undefined : body.deliveries
    }, 'the delivery settled')
    expect(deliveries).toMatchObject([{ eventId: event.id, type: 'file.deleted', status: 'succeeded', attempts: 1, lastStatusCode: 200 }])
  })
})
