/**
 * The acknowledge-first receiver behind express, against a real in-process storage service (the inbox is a table)
 * and over a real socket; then requests recorded from a running receiver (examples/fixtures/recorded-webhooks.jsonl)
 * replayed into it.
 * Run it: npx vitest run examples/ack-first-receiver.test.ts
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readRecordedRequests } from '../src/index.js'
import { createFakeClock, createMemoryLogger, createTestBot, fakeTextEvent, signWebhookRequest, type TestBot } from '../src/testing/index.js'
import { createReceiver, type Receiver } from './ack-first-receiver.js'

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const recordedFile = fileURLToPath(new URL('./fixtures/recorded-webhooks.jsonl', import.meta.url))

let bot: TestBot
let receiver: Receiver
let server: Server
let url: string
let recorded: Awaited<ReturnType<typeof readRecordedRequests>>
// The receiver's clock stands at the time the requests were recorded, so their timestamps pass the check.
let clock: ReturnType<typeof createFakeClock>

beforeAll(async () => {
  recorded = await readRecordedRequests(recordedFile)
  clock = createFakeClock(recorded[0]!.receivedAt)
  bot = await createTestBot()
  receiver = createReceiver({ client: bot.client, secret, logger: createMemoryLogger(), retryDelaysMs: [1], now: clock.now })
  await receiver.worker.start()
  server = receiver.app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`
})
afterAll(async () => {
  await receiver.worker.stop()
  await new Promise((resolve) => server.close(resolve))
  await bot.close()
})

async function messages(): Promise<string[]> {
  const { rows } = await bot.client.findTableRows({ table: 'messagesTable', orderBy: 'id' })
  return rows.map((row) => `${row['conversationId']}: ${row['text']}`)
}

describe('acknowledge-first receiver behind express', () => {
  it('answers 202 at once, then the worker writes each message, in order, once', async () => {
    for (const text of ['first', 'second', 'third']) {
      const event = fakeTextEvent(text, { conversationId: 'conv_live' })
      const response = await fetch(signWebhookRequest({ payload: event, secret, url, timestamp: clock.now() }))
      expect(response.status).toBe(202)
      expect(await response.json()).toMatchObject({ ok: true, accepted: true, duplicate: false })
    }
    await receiver.worker.whenIdle()
    expect(await messages()).toEqual(['conv_live: first', 'conv_live: second', 'conv_live: third'])
    const { rows } = await bot.client.findTableRows({ table: 'webhookInboxTable', filter: { status: 'done' } })
    expect(rows).toHaveLength(3)
    expect(await receiver.worker.deadLetters()).toEqual([])
  })

  it('replays requests recorded from a running receiver: same answers, the events processed once', async () => {
    for (const request of recorded) expect((await receiver.handler(request.toRequest())).status).toBe(request.status)
    await receiver.worker.whenIdle()
    expect((await messages()).filter((m) => m.startsWith('conv_recorded'))).toEqual([
      'conv_recorded: Hi, my invoice is wrong',
      'conv_recorded: It charged me twice',
    ])
    // A sender's retry of a recorded request is a duplicate: answered from the inbox, not processed again.
    const retry = await receiver.handler(recorded[0]!.toRequest())
    expect(await retry.json()).toMatchObject({ duplicate: true })
  })
})
