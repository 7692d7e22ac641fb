import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../../src/client/index.js'
import { fakeTextEvent } from '../../src/testing/fake-event.js'
import { signWebhookRequest } from '../../src/testing/sign-webhook-request.js'
import { lineFrom } from '../helpers/child-lines.js'
import { startTestService, type TestService } from '../helpers/service.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const receiverScript = fileURLToPath(new URL('./fixtures/inbox-receiver.ts', import.meta.url))
const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

let service: TestService
let client: Client
beforeAll(async () => {
  service = await startTestService({ listen: true })
  client = new Client({ apiUrl: service.url, token: service.tokens.bot, botId: service.botId })
})
afterAll(() => service.close())

const children: ChildProcessWithoutNullStreams[] = []
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
})

function startReceiver(mode: 'hang' | 'work'): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, ['--import', 'tsx', receiverScript, service.url, service.tokens.bot, service.botId, secret, mode], { cwd: root, stdio: 'pipe' })
  children.push(child)
  return child
}

function exitOf(child: ChildProcessWithoutNullStreams): Promise<unknown> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.signalCode ?? child.exitCode)
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)))
}

describe('the acknowledge-first receiver killed between 202 and the end of processing', () => {
  it('processes the event once after a restart, from the table inbox, and answers its retry as a duplicate', { timeout: 60_000 }, async () => {
    const first = startReceiver('hang')
    const [, url] = await lineFrom(first, /ready (\S+)\n/, 30_000, 'the receiver')
    const event = fakeTextEvent('please do not lose me', { id: 'evt_survivor', botId: service.botId, conversationId: 'conv_1' })
    const request = () => signWebhookRequest({ payload: event, secret, id: 'msg_survivor', url: url! })
    const accepted = await fetch(request())
    expect(accepted.status).toBe(202)
    expect(await accepted.json()).toEqual({ ok: true, webhookId: 'msg_survivor', duplicate: false, eventId: 'evt_survivor', accepted: true })
    await lineFrom(first, /hook started evt_survivor\n/, 30_000, 'the receiver')
    first.kill('SIGKILL')
    expect(await exitOf(first)).toBe('SIGKILL')

    const { rows: left } = await client.findTableRows({ table: 'webhookInboxTable' })
    expect(left).toMatchObject([{ webhookId: 'msg_survivor', status: 'pending', attempts: 1 }])

    const second = startReceiver('work')
    // One wait for all three lines, in any order: lines that arrive in one chunk would be lost to a second wait.
    // `drained` is written once the worker has marked the entry done, after the hook's `processed`.
    const [, secondUrl] = await lineFrom(second, /^(?=[^]*ready (\S+)\n)(?=[^]*processed evt_survivor\n)(?=[^]*drained\n)/, 30_000, 'the restarted receiver')
    const { rows: processed } = await client.findTableRows({ table: 'processedEventsTable' })
    expect(processed.map((row) => row['eventId'])).toEqual(['evt_survivor'])
    const { rows: inbox } = await client.findTableRows({ table: 'webhookInboxTable' })
    expect(inbox).toMatchObject([{ webhookId: 'msg_survivor', status: 'done', attempts: 2 }])

    const retry = await fetch(signWebhookRequest({ payload: event, secret, id: 'msg_survivor', url: secondUrl! }))
    expect(retry.status).toBe(200)
    expect(await retry.json()).toMatchObject({ ok: true, webhookId: 'msg_survivor', duplicate: true })
    expect((await client.findTableRows({ table: 'processedEventsTable' })).rows).toHaveLength(1)
  })
})
