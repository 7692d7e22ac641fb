import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BotEvent } from '../event/index.js'
import { createRuntime, defineHook } from '../runtime/index.js'
import { createFakeClock } from '../testing/fake-clock.js'
import { fakeTextEvent } from '../testing/fake-event.js'
import { createMemoryLogger } from '../testing/memory-logger.js'
import { signWebhookRequest } from '../testing/sign-webhook-request.js'
import { createWebhookHandler, MAX_WEBHOOK_BODY_BYTES } from './create-webhook-handler.js'
import type { WebhookDedupeStore } from './dedupe-store.js'
import { WebhookConfigError, WebhookVerificationError } from './errors.js'
import { toNodeHandler } from './node-adapter.js'
import { signWebhookPayload } from './signature.js'
import { verifyWebhook } from './verify-webhook.js'
import { createInboxWorker, createMemoryInbox, InboxError, type Inbox } from '../inbox/index.js'

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const otherSecret = 'whsec_' + btoa('another secret of thirty-two by')

function setup(options: { maxBodyBytes?: number; dedupe?: WebhookDedupeStore | false; secret?: string | string[]; failing?: boolean } = {}) {
  const clock = createFakeClock('2024-05-01T10:00:00Z')
  const dispatched: BotEvent[] = []
  const hooks = [defineHook({ name: 'record', point: 'afterIncoming', handler: ({ event }) => void dispatched.push(event) })]
  if (options.failing) hooks.push(defineHook({ name: 'explode', point: 'afterIncoming', handler: () => { throw new Error('kaboom') } }))
  const runtime = createRuntime({ hooks, logger: createMemoryLogger() })
  const handler = createWebhookHandler({
    runtime,
    secret: options.secret ?? secret,
    now: clock.now,
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.dedupe !== undefined ? { dedupe: options.dedupe } : {}),
  })
  const sign = (payload: unknown, extra: { id?: string; timestamp?: Date | number; secret?: string } = {}) =>
    signWebhookRequest({ payload, secret: extra.secret ?? secret, timestamp: extra.timestamp ?? clock.now(), ...(extra.id ? { id: extra.id } : {}) })
  return { clock, dispatched, handler, sign }
}

async function bodyOf(response: Response): Promise<Record<string, unknown>> {
  expect(response.headers.get('content-type')).toContain('application/json')
  return (await response.json()) as Record<string, unknown>
}

/** A request whose body is produced chunk by chunk, counting how many chunks were pulled. */
function streamingRequest(chunkSize: number, chunks: number, headers: Record<string, string> = {}) {
  const pulled = { count: 0 }
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.count === chunks) return controller.close()
      pulled.count++
      controller.enqueue(new Uint8Array(chunkSize).fill(0x61))
    },
  })
  const request = new Request('http://localhost/webhook', { method: 'POST', headers, body: stream, duplex: 'half' } as RequestInit)
  return { request, pulled }
}

describe('signature scheme', () => {
  it('matches the Standard Webhooks reference vector', async () => {
    const signature = await signWebhookPayload({
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: 1614265330,
      payload: '{"test": 2432232314}',
      secret,
    })
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=')
  })
})

describe('Svix test vector', () => {
  it('verifies the reference vector sent with the svix-* header names', async () => {
    const headers = {
      'svix-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'svix-timestamp': '1614265330',
      'svix-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    }
    const now = () => new Date(1614265330 * 1000)
    expect(await verifyWebhook({ payload: '{"test": 2432232314}', headers, secret, now })).toEqual({ test: 2432232314 })
    await expect(verifyWebhook({ payload: '{"test": 2432232315}', headers, secret, now })).rejects.toMatchObject({ code: 'INVALID_SIGNATURE' })
  })
})

describe('createWebhookHandler configuration', () => {
  const runtime = createRuntime({ logger: createMemoryLogger() })
  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['blank', '   '],
    ['not base64', 'whsec_***'],
    ['an empty list', []],
    ['a list with an empty secret', [secret, '']],
  ])('refuses a secret that is %s', (_label, bad) => {
    expect(() => createWebhookHandler({ runtime, secret: bad as string })).toThrow(WebhookConfigError)
  })

  it('refuses a body limit above 100 MB or below 1 byte, and a bad tolerance', () => {
    expect(() => createWebhookHandler({ runtime, secret, maxBodyBytes: MAX_WEBHOOK_BODY_BYTES + 1 })).toThrow('maxBodyBytes: expected an integer from 1 to 104857600')
    expect(() => createWebhookHandler({ runtime, secret, maxBodyBytes: 0 })).toThrow(WebhookConfigError)
    expect(() => createWebhookHandler({ runtime, secret, toleranceSeconds: -5 })).toThrow('toleranceSeconds')
  })
})

describe('createWebhookHandler requests', () => {
  it('dispatches a signed event and answers 200 with a summary of the run', async () => {
    const { handler, sign, dispatched } = setup()
    const response = await handler(sign(fakeTextEvent('hi', { id: 'evt_ok' }), { id: 'msg_1' }))
    expect(response.status).toBe(200)
    expect(await bodyOf(response)).toEqual({
      ok: true,
      webhookId: 'msg_1',
      duplicate: false,
      eventId: 'evt_ok',
      stopped: false,
      hooks: { ok: 1, error: 0, timeout: 0, skipped: 0 },
    })
    expect(dispatched.map((e) => e.id)).toEqual(['evt_ok'])
    expect(dispatched[0]?.createdOn).toBeInstanceOf(Date)
  })

  it('answers a failing hook with 500 and the wire error body, no internal text, and runs the retry of the same id', async () => {
    const { handler, sign, dispatched } = setup({ failing: true })
    const event = fakeTextEvent('hi', { id: 'e' })
    const response = await handler(sign(event, { id: 'msg_fail' }))
    expect(response.status).toBe(500)
    const body = await bodyOf(response)
    expect(body).toMatchObject({ code: 500, type: 'Internal', metadata: { code: 'PROCESSING_FAILED', webhookId: 'msg_fail', eventId: 'e' } })
    expect(body['id']).toMatch(/^err_\d{14}x[0-9A-F]{8}$/)
    expect(JSON.stringify(body)).not.toContain('kaboom')
    expect(JSON.stringify(body)).not.toContain('explode')
    const retry = await handler(sign(event, { id: 'msg_fail' }))
    expect(retry.status).toBe(500)
    expect(dispatched.map((e) => e.id)).toEqual(['e', 'e'])
  })

  it('answers 409 to an id still being processed, and duplicate only once it was processed', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const runtime = createRuntime({ hooks: [defineHook({ name: 'slow', point: 'afterIncoming', handler: () => gate })], logger: createMemoryLogger() })
    const clock = createFakeClock('2024-05-01T10:00:00Z')
    const handler = createWebhookHandler({ runtime, secret, now: clock.now })
    const request = () => signWebhookRequest({ payload: fakeTextEvent('slow'), secret, id: 'msg_slow', timestamp: clock.now() })
    const first = handler(request())
    const second = await handler(request())
    expect(second.status).toBe(409)
    expect(second.headers.get('retry-after')).toBe('1')
    expect(await bodyOf(second)).toMatchObject({ code: 409, type: 'ResourceLockedConflict', metadata: { code: 'WEBHOOK_IN_PROGRESS' } })
    release()
    expect((await first).status).toBe(200)
    expect(await bodyOf(await handler(request()))).toEqual({ ok: true, webhookId: 'msg_slow', duplicate: true })
  })

  it('accepts the Svix spelling of the three headers', async () => {
    const { handler, sign, dispatched } = setup()
    const signed = sign(fakeTextEvent('svix', { id: 'evt_svix' }), { id: 'msg_svix' })
    const headers = new Headers({ 'content-type': 'application/json' })
    for (const field of ['id', 'timestamp', 'signature']) headers.set(`svix-${field}`, signed.headers.get(`webhook-${field}`)!)
    const response = await handler(new Request(signed.url, { method: 'POST', headers, body: await signed.text() }))
    expect(response.status).toBe(200)
    expect(dispatched.map((e) => e.id)).toEqual(['evt_svix'])
  })

  it('answers 405 to other methods', async () => {
    const { handler } = setup()
    const response = await handler(new Request('http://localhost/webhook'))
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('POST')
  })

  it('refuses a declared oversized body with 413 without reading it', async () => {
    const { handler } = setup({ maxBodyBytes: 1000 })
    const { request, pulled } = streamingRequest(100, 50, { 'content-length': '5000' })
    const response = await handler(request)
    expect(response.status).toBe(413)
    expect(await bodyOf(response)).toMatchObject({ code: 413, type: 'PayloadTooLarge', message: 'Body: expected at most 1000 bytes, received more', metadata: { code: 'PAYLOAD_TOO_LARGE' } })
    expect(pulled.count).toBeLessThanOrEqual(1)
  })

  it('stops reading a streamed body as soon as it passes the limit (413)', async () => {
    const { handler } = setup({ maxBodyBytes: 1000 })
    const { request, pulled } = streamingRequest(100, 1000)
    const response = await handler(request)
    expect(response.status).toBe(413)
    expect(pulled.count).toBeLessThan(20)
  })

  it('answers 400 when the body stream breaks', async () => {
    const { handler } = setup()
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('connection reset'))
      },
    })
    const request = new Request('http://localhost/', { method: 'POST', body: stream, duplex: 'half' } as RequestInit)
    const response = await handler(request)
    expect(response.status).toBe(400)
    expect(await bodyOf(response)).toMatchObject({ metadata: { code: 'BODY_READ_FAILED' }, message: 'Body: could not be read to the end (connection reset)' })
  })

  it('checks the size before the signature', async () => {
    const { handler } = setup({ maxBodyBytes: 10 })
    const response = await handler(new Request('http://localhost/', { method: 'POST', body: 'x'.repeat(11) }))
    expect(response.status).toBe(413)
  })

  it('answers 401 when webhook headers are missing', async () => {
    const { handler } = setup()
    const response = await handler(new Request('http://localhost/', { method: 'POST', body: '{}', headers: { 'webhook-id': 'x' } }))
    expect(response.status).toBe(401)
    expect(await bodyOf(response)).toMatchObject({ code: 401, type: 'Unauthorized', metadata: { code: 'MISSING_HEADER' }, message: 'Missing webhook headers: webhook-timestamp, webhook-signature (or their svix-* spelling)' })
  })

  it('answers 401 to a tampered body, a wrong secret and a garbage signature', async () => {
    const { handler, sign } = setup()
    const good = sign(fakeTextEvent('hi'))
    const tampered = new Request(good.url, { method: 'POST', headers: good.headers, body: JSON.stringify(fakeTextEvent('evil')) })
    expect((await handler(tampered)).status).toBe(401)
    const wrong = sign(fakeTextEvent('hi'), { secret: otherSecret })
    const wrongBody = await bodyOf(await handler(wrong))
    expect(wrongBody).toMatchObject({ code: 401, metadata: { code: 'INVALID_SIGNATURE' } })
    const garbage = sign(fakeTextEvent('hi'))
    garbage.headers.set('webhook-signature', 'v1,!!!! v2,abc nonsense')
    expect((await handler(garbage)).status).toBe(401)
  })

  it('accepts several signatures in the header and several secrets for rotation', async () => {
    const rotating = setup({ secret: [otherSecret, secret] })
    expect((await rotating.handler(await rotating.sign(fakeTextEvent('a')))).status).toBe(200)
    expect((await rotating.handler(await rotating.sign(fakeTextEvent('b'), { secret: otherSecret }))).status).toBe(200)

    const { handler, sign } = setup()
    const request = sign(fakeTextEvent('hi'), { secret: otherSecret })
    const id = request.headers.get('webhook-id')!
    const ts = request.headers.get('webhook-timestamp')!
    const body = await request.clone().text()
    const valid = await signWebhookPayload({ id, timestamp: ts, payload: body, secret })
    request.headers.set('webhook-signature', `${request.headers.get('webhook-signature')} ${valid}`)
    expect((await handler(request)).status).toBe(200)
  })

  it('refuses timestamps outside the tolerance in both directions, against the injected clock', async () => {
    const { handler, sign, clock } = setup()
    const base = clock.now().getTime()
    const old = await bodyOf(await handler(sign(fakeTextEvent('a'), { timestamp: new Date(base - 301_000) })))
    expect(old).toMatchObject({ metadata: { code: 'TIMESTAMP_TOO_OLD' }, message: 'webhook-timestamp: 301 s old, more than the 300 s tolerance' })
    const future = await handler(sign(fakeTextEvent('a'), { timestamp: new Date(base + 301_000) }))
    expect(future.status).toBe(401)
    expect(((await future.json()) as { metadata: { code: string } }).metadata.code).toBe('TIMESTAMP_TOO_NEW')
    expect((await handler(sign(fakeTextEvent('a'), { timestamp: new Date(base - 299_000) }))).status).toBe(200)
    expect((await handler(sign(fakeTextEvent('a'), { timestamp: new Date(base + 299_000) }))).status).toBe(200)
  })

  it('checks the signature before the timestamp', async () => {
    const { handler, sign, clock } = setup()
    const request = sign(fakeTextEvent('a'), { timestamp: new Date(clock.now().getTime() - 3_600_000), secret: otherSecret })
    expect(await bodyOf(await handler(request))).toMatchObject({ metadata: { code: 'INVALID_SIGNATURE' } })
  })

  it('answers a duplicate webhook-id with 200 and does not dispatch it again', async () => {
    const { handler, sign, dispatched } = setup()
    const event = fakeTextEvent('once', { id: 'evt_once' })
    expect((await handler(sign(event, { id: 'msg_dup' }))).status).toBe(200)
    const second = await handler(sign(event, { id: 'msg_dup' }))
    expect(second.status).toBe(200)
    expect(await bodyOf(second)).toEqual({ ok: true, webhookId: 'msg_dup', duplicate: true })
    expect(dispatched).toHaveLength(1)
  })

  it('keeps a processed webhook-id for twice the tolerance (10 minutes by default), then forgets it', async () => {
    const { handler, sign, dispatched, clock } = setup()
    const event = fakeTextEvent('later', { id: 'evt_later' })
    expect((await handler(sign(event, { id: 'msg_later' }))).status).toBe(200)
    // A retry signed afresh 9 min 59 s later is still the same delivery.
    clock.advance(10 * 60 * 1000 - 1000)
    expect(await bodyOf(await handler(sign(event, { id: 'msg_later' })))).toEqual({ ok: true, webhookId: 'msg_later', duplicate: true })
    expect(dispatched).toHaveLength(1)
    // Past 10 minutes the id is forgotten: a replay that old is refused by its timestamp anyway, a fresh one runs.
    clock.advance(2000)
    expect(await bodyOf(await handler(sign(event, { id: 'msg_later' })))).toMatchObject({ ok: true, webhookId: 'msg_later', duplicate: false })
    expect(dispatched).toHaveLength(2)
  })

  it('dispatches once when the same webhook-id arrives many times at once (the others 409 while it runs)', async () => {
    const { handler, sign, dispatched } = setup()
    const event = fakeTextEvent('burst', { id: 'evt_burst' })
    const responses = await Promise.all(Array.from({ length: 20 }, () => handler(sign(event, { id: 'msg_burst' }))))
    const statuses = responses.map((r) => r.status)
    // One runs; the others arrive while it is in progress (409, retry later) or after it finished (200 duplicate).
    expect(statuses.filter((s) => s === 200)).not.toHaveLength(0)
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true)
    const bodies = await Promise.all(responses.filter((r) => r.status === 200).map((r) => r.json() as Promise<{ duplicate: boolean }>))
    expect(bodies.filter((b) => !b.duplicate)).toHaveLength(1)
    expect(dispatched).toHaveLength(1)
  })

  it('uses a pluggable dedupe store, and can run without one', async () => {
    const claims: string[] = []
    const store: WebhookDedupeStore = { claim: (id) => (claims.push(id), 'new'), complete: () => undefined, release: () => undefined }
    const custom = setup({ dedupe: store })
    await custom.handler(await custom.sign(fakeTextEvent('a'), { id: 'msg_a' }))
    expect(claims).toEqual(['msg_a'])
    const none = setup({ dedupe: false })
    await none.handler(await none.sign(fakeTextEvent('a'), { id: 'msg_same' }))
    await none.handler(await none.sign(fakeTextEvent('a'), { id: 'msg_same' }))
    expect(none.dispatched).toHaveLength(2)
  })

  it('answers 400 to a body that is not JSON, and lets a corrected retry with the same id through', async () => {
    const { handler, sign, dispatched } = setup()
    const bad = await handler(sign('{"nope', { id: 'msg_retry' }))
    expect(bad.status).toBe(400)
    expect(await bodyOf(bad)).toMatchObject({ code: 400, type: 'InvalidPayload', metadata: { code: 'INVALID_JSON' } })
    expect((await handler(sign(fakeTextEvent('fixed'), { id: 'msg_retry' }))).status).toBe(200)
    expect(dispatched).toHaveLength(1)
  })

  it('answers 400 with the issue list to an invalid event', async () => {
    const { handler, sign, dispatched } = setup()
    const response = await handler(sign({ ...fakeTextEvent('x'), direction: 'sideways', botId: 1 }))
    expect(response.status).toBe(400)
    const body = await bodyOf(response)
    expect((body['metadata'] as { code: string }).code).toBe('INVALID_EVENT')
    expect((body['metadata'] as { issues: unknown }).issues).toEqual([
      expect.objectContaining({ path: 'botId', message: 'botId: expected string, received number (1)' }),
      expect.objectContaining({ path: 'direction', message: 'direction: expected "incoming" | "outgoing", received "sideways"' }),
    ])
    expect(dispatched).toHaveLength(0)
  })

  it('validates the event once for a runtime from createRuntime, and hands any other runtime the validated event', async () => {
    const clock = createFakeClock('2024-05-01T10:00:00Z')
    const received: unknown[] = []
    const plain = {
      dispatch: async (event: unknown) => {
        received.push(event)
        return createRuntime({ logger: createMemoryLogger() }).dispatch(event)
      },
    }
    const handler = createWebhookHandler({ runtime: plain, secret, now: clock.now })
    const response = await handler(signWebhookRequest({ payload: fakeTextEvent('hi', { id: 'evt_plain' }), secret, timestamp: clock.now() }))
    expect(response.status).toBe(200)
    expect(received).toHaveLength(1)
    expect((received[0] as BotEvent).createdOn).toBeInstanceOf(Date)

    const { handler: direct, sign, dispatched } = setup()
    const runtimeResponse = await direct(sign(fakeTextEvent('hi', { id: 'evt_direct', createdOn: '2024-05-01T12:00:00+02:00' })))
    expect(runtimeResponse.status).toBe(200)
    expect(dispatched[0]?.createdOn.toISOString()).toBe('2024-05-01T10:00:00.000Z')
  })
})

describe('createWebhookHandler acknowledge-first', () => {
  function ackSetup(inbox: Inbox = createMemoryInbox()) {
    const clock = createFakeClock('2024-05-01T10:00:00Z')
    const seen: string[] = []
    const runtime = createRuntime({ hooks: [defineHook({ name: 'rec', point: 'afterIncoming', handler: ({ event }) => void seen.push(event.id) })], logger: createMemoryLogger() })
    const worker = createInboxWorker({ runtime, inbox, logger: createMemoryLogger() })
    const make = () => createWebhookHandler({ runtime, secret, now: clock.now, acknowledgeFirst: worker, logger: createMemoryLogger() })
    const sign = (payload: unknown, id: string) => signWebhookRequest({ payload, secret, id, timestamp: clock.now() })
    return { worker, make, sign, seen }
  }

  it('answers 202 once the event is in the inbox, and a duplicate from the inbox after a restart (fresh dedupe)', async () => {
    const { worker, make, sign, seen } = ackSetup()
    await worker.start()
    const response = await make()(sign(fakeTextEvent('hi', { id: 'evt_ack' }), 'msg_ack'))
    expect(response.status).toBe(202)
    expect(await bodyOf(response)).toEqual({ ok: true, webhookId: 'msg_ack', duplicate: false, eventId: 'evt_ack', accepted: true })
    await worker.whenIdle()
    expect(seen).toEqual(['evt_ack'])
    const again = await make()(sign(fakeTextEvent('hi', { id: 'evt_ack' }), 'msg_ack'))
    expect(again.status).toBe(200)
    expect(await bodyOf(again)).toMatchObject({ duplicate: true, accepted: true })
    await worker.whenIdle()
    expect(seen).toEqual(['evt_ack'])
  })

  it('answers 413 for an event the inbox cannot hold, and 500 with the id released when the inbox is down', async () => {
    const memory = createMemoryInbox()
    let down = true
    const flaky: Inbox = {
      ...memory,
      add: async (entry) => {
        if (entry.body.length > 2000) throw new InboxError('INBOX_ENTRY_TOO_LARGE', 'Event: expected at most 2000 bytes for the inbox')
        if (down) throw new Error('storage unreachable at 10.0.0.3')
        return memory.add(entry)
      },
    }
    const { worker, make, sign } = ackSetup(flaky)
    const handler = make()
    const big = await handler(sign(fakeTextEvent('x'.repeat(3000)), 'msg_big'))
    expect(big.status).toBe(413)
    expect(await bodyOf(big)).toMatchObject({ type: 'LimitExceeded', metadata: { code: 'INBOX_ENTRY_TOO_LARGE' } })
    const unavailable = await handler(sign(fakeTextEvent('hi'), 'msg_down'))
    expect(unavailable.status).toBe(500)
    const text = JSON.stringify(await bodyOf(unavailable))
    expect(text).toContain('INBOX_UNAVAILABLE')
    expect(text).not.toContain('10.0.0.3')
    down = false
    expect((await handler(sign(fakeTextEvent('hi'), 'msg_down'))).status).toBe(202)
    await worker.stop()
  })

  it('answers at once, with a clear error, a request whose body was already read', async () => {
    const { handler, sign } = setup()
    const request = sign(fakeTextEvent('hi'))
    await request.text()
    const response = await handler(request)
    expect(response.status).toBe(500)
    expect(await bodyOf(response)).toMatchObject({ metadata: { code: 'BODY_ALREADY_READ' } })
  })
})

describe('verifyWebhook', () => {
  it('returns the parsed body of a valid request, with Node-style headers', async () => {
    const now = new Date('2024-05-01T10:00:00Z')
    const request = signWebhookRequest({ payload: { hello: 'world' }, secret, timestamp: now })
    const headers: Record<string, string> = {}
    request.headers.forEach((value, key) => (headers[key] = value))
    const payload = await request.text()
    expect(await verifyWebhook({ payload, headers, secret, now: () => now })).toEqual({ hello: 'world' })
  })

  it('throws WebhookVerificationError with a code for each failed check', async () => {
    const now = new Date('2024-05-01T10:00:00Z')
    const request = signWebhookRequest({ payload: 'not json', secret, timestamp: now })
    const payload = await request.text()
    const codeOf = (p: Promise<unknown>) => p.then(() => 'passed', (e: unknown) => (e instanceof WebhookVerificationError ? e.code : String(e)))
    expect(await codeOf(verifyWebhook({ payload, headers: request.headers, secret, now: () => now }))).toBe('INVALID_JSON')
    expect(await codeOf(verifyWebhook({ payload: payload + ' ', headers: request.headers, secret, now: () => now }))).toBe('INVALID_SIGNATURE')
    expect(await codeOf(verifyWebhook({ payload, headers: request.headers, secret, toleranceSeconds: 10, now: () => now.getTime() + 11_000 }))).toBe(
      'TIMESTAMP_TOO_OLD',
    )
    expect(await codeOf(verifyWebhook({ payload, headers: {}, secret }))).toBe('MISSING_HEADER')
    await expect(verifyWebhook({ payload, headers: request.headers, secret: '' })).rejects.toThrow(WebhookConfigError)
  })
})

describe('toNodeHandler', () => {
  const dispatched: string[] = []
  const runtime = createRuntime({
    hooks: [defineHook({ name: 'rec', point: 'afterIncoming', handler: ({ event }) => void dispatched.push(event.id) })],
    logger: createMemoryLogger(),
  })
  const server = createServer(toNodeHandler(createWebhookHandler({ runtime, secret, maxBodyBytes: 64 * 1024 })))
  let url = ''
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('serves the webhook handler over node:http', async () => {
    const signed = signWebhookRequest({ payload: fakeTextEvent('over http', { id: 'evt_http' }), secret, url })
    const response = await fetch(signed)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ ok: true, eventId: 'evt_http' })
    expect(dispatched).toEqual(['evt_http'])
  })

  it('answers 413 to an oversized body over node:http', async () => {
    const response = await fetch(url, { method: 'POST', body: 'x'.repeat(200 * 1024) })
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchObject({ metadata: { code: 'PAYLOAD_TOO_LARGE' } })
  })
})
