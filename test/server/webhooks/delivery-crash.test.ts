import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { spawnServe, type ServeProcess } from '../../helpers/cli.js'
import { startReceiver } from './receiver.js'

// A real `botshelf serve` process killed with SIGKILL while its delivery is in flight, then started again.
const cleanup: Array<() => Promise<unknown> | unknown> = []
afterAll(async () => {
  for (const step of cleanup.splice(0).reverse()) await Promise.resolve(step()).catch(() => undefined)
})

async function call(serve: ServeProcess, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${serve.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'x-bot-id': serve.botId, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  })
  return { status: response.status, body: await response.json() }
}

describe('a server killed between the commit and the delivery', () => {
  it('delivers the event after the restart', { timeout: 60_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'botshelf-webhook-crash-'))
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }))
    const receiver = await startReceiver()
    cleanup.push(() => receiver.close())
    // The first attempt never answers: the server dies holding it.
    receiver.script('/hook', ['hang', 200])
    const flags = ['--job-lease', '1', '--webhook-retries', '50ms']
    const first = await spawnServe(dataDir, flags)
    cleanup.push(() => first.child.kill('SIGKILL'))
    const token = first.token!
    expect((await call(first, token, 'POST', '/v1/webhooks', { url: `${receiver.url}/hook`, types: ['table.created'] })).status).toBe(200)
    const made = await call(first, token, 'POST', '/v1/tables', { name: 'crashTable', schema: { type: 'object', properties: { n: { type: 'number' } } } })
    expect(made.status).toBe(200)
    await receiver.waitFor(() => receiver.on('/hook').length === 1, 'the first attempt to arrive')
    first.child.kill('SIGKILL')
    expect(await first.exited).toBe('SIGKILL')

    const second = await spawnServe(dataDir, flags)
    cleanup.push(() => second.child.kill('SIGKILL'))
    await receiver.waitFor(() => receiver.on('/hook').length >= 2, 'the delivery after the restart', 30_000)
    const [lost, delivered] = receiver.on('/hook')
    expect(delivered!.headers['webhook-id']).toBe(lost!.headers['webhook-id'])
    expect(delivered!.json).toMatchObject({ type: 'table.created', payload: { table: { name: 'crashTable' } } })
    const webhooks = await call(second, token, 'GET', '/v1/webhooks')
    const deliveries = await call(second, token, 'GET', `/v1/webhooks/${webhooks.body.webhooks[0].id}/deliveries`)
    expect(deliveries.body.deliveries).toHaveLength(1)
    second.child.kill('SIGTERM')
    await second.exited
  })
})
