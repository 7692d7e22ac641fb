// Receivers that fit any server, through real sockets: node:http, express (with and without a body parser in
// front), fastify, Hono and a Next.js route handler; the delivery semantics (a failed hook, then the sender's retry);
// Svix header names; action requests; acknowledge-first ordering; a recorded request replayed.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import express from 'express'
import Fastify from 'fastify'
import { Hono } from 'hono'
import { z } from 'zod'
import { afterAll, describe, expect, it } from 'vitest'
import { createInboxWorker, createMemoryInbox } from '../../src/inbox/index.js'
import { createRuntime, defineAction, defineHook } from '../../src/runtime/index.js'
import { createFakeClock } from '../../src/testing/fake-clock.js'
import { fakeTextEvent } from '../../src/testing/fake-event.js'
import { createMemoryLogger } from '../../src/testing/memory-logger.js'
import { signWebhookRequest } from '../../src/testing/sign-webhook-request.js'
import {
  createWebhookHandler,
  readRecordedRequests,
  recordWebhookRequests,
  toNodeHandler,
  type FetchHandler,
} from '../../src/webhook/index.js'

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const servers: Server[] = []
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))))

/** Listens on a free port and answers the base URL. */
async function listen(server: Server): Promise<string> {
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** A runtime whose one hook records the ids it saw; `failFirst` makes it throw on the first run of each event. */
function recordingRuntime(options: { failFirst?: boolean } = {}) {
  const seen: string[] = []
  const failed = new Set<string>()
  const add = defineAction({
    name: 'add',
    input: z.object({ a: z.number(), b: z.number() }),
    output: z.object({ sum: z.number() }),
    handler: ({ input }) => ({ sum: input.a + input.b }),
  })
  const explode = defineAction({ name: 'explode', input: z.object({}), output: z.object({}), handler: () => { throw new Error('secret database password in here') } })
  const runtime = createRuntime({
    hooks: [
      defineHook({
        name: 'record',
        point: 'afterIncoming',
        handler: ({ event }) => {
          if (options.failFirst && !failed.has(event.id)) {
            failed.add(event.id)
            throw new Error('the CRM is down (internal detail)')
          }
          seen.push(event.id)
        },
      }),
    ],
    actions: [add, explode],
    logger: createMemoryLogger(),
  })
  return { runtime, seen }
}

function handlerFor(options: { failFirst?: boolean } = {}) {
  const { runtime, seen } = recordingRuntime(options)
  return { handler: createWebhookHandler({ runtime, secret, logger: createMemoryLogger() }), seen }
}

const signed = (url: string, payload: unknown, id?: string) => signWebhookRequest({ payload, secret, url, ...(id ? { id } : {}) })

describe('delivery that loses nothing (node:http)', () => {
  it('answers a throwing hook with a retryable 500 and no internal text; the retry with the same webhook-id processes the event', async () => {
    const { handler, seen } = handlerFor({ failFirst: true })
    const url = await listen(createServer(toNodeHandler(handler)))
    const event = fakeTextEvent('refund please', { id: 'evt_retry' })
    const failed = await fetch(signed(url, event, 'msg_retry'))
    expect(failed.status).toBe(500)
    const text = await failed.text()
    expect(JSON.parse(text)).toMatchObject({ code: 500, type: 'Internal', metadata: { code: 'PROCESSING_FAILED', webhookId: 'msg_retry' } })
    expect(text).not.toContain('CRM')
    const retried = await fetch(signed(url, event, 'msg_retry'))
    expect(retried.status).toBe(200)
    expect(await retried.json()).toMatchObject({ ok: true, duplicate: false, eventId: 'evt_retry' })
    expect(seen).toEqual(['evt_retry'])
    const again = await fetch(signed(url, event, 'msg_retry'))
    expect(await again.json()).toEqual({ ok: true, webhookId: 'msg_retry', duplicate: true })
    expect(seen).toEqual(['evt_retry'])
  })

  it('verifies requests signed with the svix-* header names', async () => {
    const { handler, seen } = handlerFor()
    const url = await listen(createServer(toNodeHandler(handler)))
    const request = signed(url, fakeTextEvent('from a Svix sender', { id: 'evt_svix' }), 'msg_svix')
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    for (const field of ['id', 'timestamp', 'signature']) headers[`svix-${field}`] = request.headers.get(`webhook-${field}`)!
    const response = await fetch(url, { method: 'POST', headers, body: await request.text() })
    expect(response.status).toBe(200)
    expect(seen).toEqual(['evt_svix'])
  })
})

describe('express', () => {
  it('works with express.raw(), express.text() or a kept rawBody in front, and answers at once with a clear error behind express.json() alone', async () => {
    const { handler, seen } = handlerFor()
    const app = express()
    app.post('/raw', express.raw({ type: '*/*' }), toNodeHandler(handler))
    app.post('/kept', express.json({ verify: (req, _res, buf) => void ((req as { rawBody?: Buffer }).rawBody = buf) }), toNodeHandler(handler))
    app.post('/text', express.text({ type: '*/*' }), toNodeHandler(handler))
    app.post('/json', express.json(), toNodeHandler(handler))
    app.post('/direct', toNodeHandler(handler))
    const url = await listen(createServer(app))

    expect((await fetch(signed(`${url}/raw`, fakeTextEvent('a', { id: 'evt_raw' })))).status).toBe(200)
    expect((await fetch(signed(`${url}/kept`, fakeTextEvent('b', { id: 'evt_kept' })))).status).toBe(200)
    expect((await fetch(signed(`${url}/direct`, fakeTextEvent('c', { id: 'evt_direct' })))).status).toBe(200)
    expect((await fetch(signed(`${url}/text`, fakeTextEvent('é', { id: 'evt_text' })))).status).toBe(200)
    const parsed = await fetch(signed(`${url}/json`, fakeTextEvent('d', { id: 'evt_json' })))
    expect(parsed.status).toBe(500)
    const body = (await parsed.json()) as { message: string; metadata: { code: string } }
    expect(body.metadata.code).toBe('BODY_ALREADY_READ')
    expect(body.message).toContain("express.raw({ type: '*/*' })")
    expect(seen).toEqual(['evt_raw', 'evt_kept', 'evt_direct', 'evt_text'])
  })
})

describe('fastify', () => {
  it('serves the handler with the raw body kept by a buffer content-type parser', async () => {
    const { handler, seen } = handlerFor()
    const app = Fastify()
    const nodeHandler = toNodeHandler(handler)
    await app.register(async (scope) => {
      // Inside this scope every body, JSON included, is kept as bytes, so the signature can be checked.
      scope.removeAllContentTypeParsers()
      scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))
      scope.post('/webhook', (request, reply) => {
        reply.hijack()
        nodeHandler(Object.assign(request.raw, { rawBody: request.body }), reply.raw)
      })
    })
    const url = await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      const response = await fetch(signed(`${url}/webhook`, fakeTextEvent('hi', { id: 'evt_fastify' })))
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({ ok: true, eventId: 'evt_fastify' })
      expect(seen).toEqual(['evt_fastify'])
    } finally {
      await app.close()
    }
  })
})

describe('Fetch hosts', () => {
  it('Hono: a route hands its raw request to the handler', async () => {
    const { handler, seen } = handlerFor()
    const app = new Hono()
    app.post('/webhook', (c) => handler(c.req.raw))
    const url = await listen(createServer(toNodeHandler((request) => Promise.resolve(app.fetch(request)))))
    expect((await fetch(signed(`${url}/webhook`, fakeTextEvent('hi', { id: 'evt_hono' })))).status).toBe(200)
    expect(seen).toEqual(['evt_hono'])
  })

  it('Next.js: the handler is the route handler (`export const POST = handler`)', async () => {
    const { handler, seen } = handlerFor()
    // app/api/webhook/route.ts: `export const POST = createWebhookHandler({ runtime, secret })`
    const route: { POST: FetchHandler } = { POST: handler }
    const response = await route.POST(signed('https://bot.example.com/api/webhook', fakeTextEvent('hi', { id: 'evt_next' })))
    expect(response.status).toBe(200)
    expect(seen).toEqual(['evt_next'])
  })
})

describe('actions called from outside', () => {
  it('runs a signed action request and answers its output; refuses bad requests with their reason; hides a failure', async () => {
    const { handler } = handlerFor()
    const url = await listen(createServer(toNodeHandler(handler)))
    const event = fakeTextEvent('context')
    const ok = await fetch(signed(url, { action: 'add', input: { a: 2, b: 3 }, event }, 'msg_add'))
    expect(ok.status).toBe(200)
    expect(await ok.json()).toEqual({ ok: true, webhookId: 'msg_add', duplicate: false, action: 'add', output: { sum: 5 } })

    const badInput = await fetch(signed(url, { action: 'add', input: { a: 'two' }, event }))
    expect(badInput.status).toBe(400)
    expect(await badInput.json()).toMatchObject({ type: 'InvalidPayload', metadata: { code: 'INVALID_ACTION_INPUT', issues: [{ path: 'a' }, { path: 'b' }] } })
    const unknown = await fetch(signed(url, { action: 'nope', input: {}, event }))
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ metadata: { code: 'ACTION_NOT_FOUND' } })
    const noEvent = await fetch(signed(url, { action: 'add', input: { a: 1, b: 1 } }))
    expect(noEvent.status).toBe(400)
    expect(await noEvent.json()).toMatchObject({ message: 'event: expected the event the action runs for (an object), received undefined' })
    const failing = await fetch(signed(url, { action: 'explode', input: {}, event }))
    expect(failing.status).toBe(500)
    const text = await failing.text()
    expect(JSON.parse(text)).toMatchObject({ metadata: { code: 'ACTION_FAILED', action: 'explode' } })
    expect(text).not.toContain('password')
  })
})

describe('acknowledge-first over real sockets', () => {
  it('answers 202 and keeps the order of each conversation under 50 concurrent conversations', async () => {
    const order = new Map<string, string[]>()
    let active = 0
    let most = 0
    const runtime = createRuntime({
      hooks: [
        defineHook({
          name: 'record',
          point: 'afterIncoming',
          handler: async ({ event }) => {
            active++
            most = Math.max(most, active)
            await new Promise((resolve) => setImmediate(resolve))
            order.set(event.conversationId!, [...(order.get(event.conversationId!) ?? []), event.id])
            active--
          },
        }),
      ],
      logger: createMemoryLogger(),
    })
    const worker = createInboxWorker({ runtime, inbox: createMemoryInbox(), concurrency: 8, logger: createMemoryLogger() })
    await worker.start()
    const url = await listen(createServer(toNodeHandler(createWebhookHandler({ runtime, secret, acknowledgeFirst: worker }))))
    const perConversation = 4
    // Each conversation's sender waits for the 202 of one event before sending the next; the 50 send at once.
    await Promise.all(
      Array.from({ length: 50 }, async (_, c) => {
        for (let n = 0; n < perConversation; n++) {
          const response = await fetch(signed(url, fakeTextEvent(`m${n}`, { id: `evt_${c}_${n}`, conversationId: `conv_${c}` })))
          expect(response.status).toBe(202)
        }
      }),
    )
    await worker.whenIdle()
    expect(order.size).toBe(50)
    for (const [conversation, ids] of order) {
      const c = conversation.slice('conv_'.length)
      expect(ids).toEqual(Array.from({ length: perConversation }, (_, n) => `evt_${c}_${n}`))
    }
    expect(most).toBeLessThanOrEqual(8)
    expect(most).toBeGreaterThan(1)
    await worker.stop()
  })
})

describe('recorded requests', () => {
  it('records the signed requests a running receiver gets to a file, and replays them into a test', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'botshelf-recorded-'))
    try {
      const file = join(dir, 'webhooks.jsonl')
      const live = handlerFor()
      const url = await listen(createServer(toNodeHandler(recordWebhookRequests(live.handler, { file }))))
      expect((await fetch(signed(url, fakeTextEvent('recorded one', { id: 'evt_rec_1' }), 'msg_rec_1'))).status).toBe(200)
      expect((await fetch(signed(url, { ...fakeTextEvent('x'), direction: 'sideways' }, 'msg_rec_2'))).status).toBe(400)

      const recorded = await readRecordedRequests(file)
      expect(recorded.map((r) => [r.headers['webhook-id'], r.status])).toEqual([
        ['msg_rec_1', 200],
        ['msg_rec_2', 400],
      ])
      const replay = recordingRuntime()
      const clock = createFakeClock(recorded[0]!.receivedAt)
      const handler = createWebhookHandler({ runtime: replay.runtime, secret, now: clock.now })
      for (const request of recorded) expect((await handler(request.toRequest())).status).toBe(request.status)
      expect(replay.seen).toEqual(['evt_rec_1'])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
