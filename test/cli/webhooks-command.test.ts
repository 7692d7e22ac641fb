import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../server/src/cli/main.js'
import { serveForClientCommands, type ServedFolder } from '../helpers/cli.js'
import { startReceiver } from '../server/webhooks/receiver.js'

// `botshelf webhooks` against a real `botshelf serve` (a child process), commands in process with their own env.
let served: ServedFolder | undefined
let receiver: Awaited<ReturnType<typeof startReceiver>>

beforeAll(async () => {
  served = await serveForClientCommands('botshelf-webhooks-cli-')
  receiver = await startReceiver()
}, 30_000)

afterAll(async () => {
  await served?.stop()
  await receiver?.close()
})

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const code = await runCli(argv, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, env: served!.env })
  return { code, stdout, stderr }
}

describe('botshelf webhooks', () => {
  it('adds, lists, shows deliveries, retries and removes a subscription', async () => {
    const added = await cli(['webhooks', 'add', `${receiver.url}/cli`, '--type', 'table.created', '--description', 'from the CLI'])
    expect(added.code, added.stderr).toBe(0)
    const [id, secretLine] = added.stdout.trim().split('\n')
    expect(id).toMatch(/^wh_/)
    expect(secretLine).toMatch(/^secret: whsec_/)
    const listed = await cli(['webhooks', 'ls'])
    expect(listed.stdout).toContain(id!)
    expect(listed.stdout).toContain('table.created')
    expect(listed.stdout).not.toContain('whsec_')
    expect((await cli(['tables', 'create', 'cliTable', '--schema', '{"n":{"type":"number"}}'])).code).toBe(0)
    await receiver.waitFor(() => receiver.on('/cli').length === 1, 'the delivery')
    let deliveries = await cli(['webhooks', 'deliveries', id!, '--json'])
    for (let i = 0; i < 50 && !deliveries.stdout.includes('succeeded'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      deliveries = await cli(['webhooks', 'deliveries', id!, '--json'])
    }
    const [delivery] = JSON.parse(deliveries.stdout)
    expect(delivery).toMatchObject({ type: 'table.created', status: 'succeeded', attempts: 1 })
    expect((await cli(['webhooks', 'retry', id!, delivery.id])).code).toBe(0)
    await receiver.waitFor(() => receiver.on('/cli').length === 2, 'the replay')
    expect((await cli(['webhooks', 'rm', id!])).code).toBe(0)
    const missing = await cli(['webhooks', 'rm', id!])
    expect(missing.code).not.toBe(0)
    expect(missing.stderr).toContain('No webhook')
    const bad = await cli(['webhooks', 'add', 'ftp://nowhere'])
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain('url')
  })
})
