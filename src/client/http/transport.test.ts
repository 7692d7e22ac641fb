import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineOperation } from '../../api/operation.js'
import { AbortError, NetworkError, TimeoutError } from '../errors/client-errors.js'
import { InternalError, RateLimitedError, ResourceNotFoundError } from '../errors/api-error-classes.js'
import { resolveClientConfig, type ClientOptions } from '../options.js'
import { planRequest } from './request-plan.js'
import { Transport } from './transport.js'

const getThing = defineOperation({
  name: 'getThing',
  method: 'GET',
  path: '/v1/things/{id}',
  summary: 'test',
  params: z.object({ id: z.string() }),
  query: z.object({ tags: z.record(z.string(), z.string()).optional() }),
  response: z.object({ ok: z.boolean() }),
})
const createThing = defineOperation({
  name: 'createThing',
  method: 'POST',
  path: '/v1/things',
  summary: 'test',
  body: z.object({ name: z.string() }),
  response: z.object({ ok: z.boolean() }),
})
const deleteThing = defineOperation({
  name: 'deleteThing',
  method: 'DELETE',
  path: '/v1/things/{id}',
  summary: 'test',
  params: z.object({ id: z.string() }),
  body: z.object({}),
  response: z.object({}),
})

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })
const errorBody = (type: string, code: number) => ({ id: 'err_x', code, type, message: `${type} happened` })

function setup(responses: Array<Response | Error | 'hang'>, options: ClientOptions = {}) {
  const requests: Request[] = []
  const transport = new Transport(
    resolveClientConfig({
      apiUrl: 'http://svc.test/prefix',
      token: 'tok',
      botId: 'bot1',
      fetch: async (request) => {
        requests.push(request)
        const next = responses.shift() ?? new Error('no more responses')
        if (next === 'hang') return new Promise<Response>(() => undefined)
        if (next instanceof Error) throw next
        return next
      },
      ...options,
    }),
  )
  return { transport, requests }
}

describe('Transport', () => {
  it('sends auth headers, an encoded path, a query string and no body on GET', async () => {
    const { transport, requests } = setup([json(200, { ok: true })])
    const result = await transport.requestJson(planRequest(getThing, { id: 'a/b c.txt', tags: { k: 'v' } }))
    expect(result).toEqual({ ok: true })
    const request = requests[0]!
    expect(request.url).toBe('http://svc.test/prefix/v1/things/a%2Fb%20c.txt?tags.k=v')
    expect(request.method).toBe('GET')
    expect(request.headers.get('authorization')).toBe('bearer tok')
    expect(request.headers.get('x-bot-id')).toBe('bot1')
    expect(request.body).toBeNull()
  })

  it('sends a JSON body on POST and {} on DELETE', async () => {
    const { transport, requests } = setup([json(200, { ok: true }), json(200, {})])
    await transport.requestJson(planRequest(createThing, { name: 'n', extra: 'dropped' } as object))
    await transport.requestJson(planRequest(deleteThing, { id: '1' }))
    expect(await requests[0]!.json()).toEqual({ name: 'n' })
    expect(requests[0]!.headers.get('content-type')).toBe('application/json')
    expect(await requests[1]!.text()).toBe('{}')
    expect(requests[1]!.headers.get('content-type')).toBe('application/json')
  })

  it('applies per-call headers last', async () => {
    const { transport, requests } = setup([json(200, { ok: true })], { headers: { 'x-a': 'client' } })
    await transport.requestJson(planRequest(getThing, { id: '1' }), { headers: { 'x-a': 'call', 'x-bot-id': 'other' } })
    expect(requests[0]!.headers.get('x-a')).toBe('call')
    expect(requests[0]!.headers.get('x-bot-id')).toBe('other')
  })

  it('turns an error answer into its ApiError class', async () => {
    const { transport } = setup([json(404, errorBody('ResourceNotFound', 404))])
    const error = await transport.requestJson(planRequest(getThing, { id: '1' })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ResourceNotFoundError)
    expect((error as ResourceNotFoundError).id).toBe('err_x')
  })

  it('does not retry unless asked', async () => {
    const { transport, requests } = setup([json(503, errorBody('Internal', 500)), json(200, { ok: true })])
    await expect(transport.requestJson(planRequest(getThing, { id: '1' }))).rejects.toBeInstanceOf(InternalError)
    expect(requests).toHaveLength(1)
  })

  it('retries idempotent calls after 5xx, 429 and network errors, then succeeds', async () => {
    const { transport, requests } = setup(
      [json(500, errorBody('Internal', 500)), new TypeError('fetch failed'), json(429, errorBody('RateLimited', 429)), json(200, { ok: true })],
      { retry: { retries: 3, minDelayMs: 1 } },
    )
    expect(await transport.requestJson(planRequest(getThing, { id: '1' }))).toEqual({ ok: true })
    expect(requests).toHaveLength(4)
  })

  it('gives up after the configured retries with the last error', async () => {
    const { transport, requests } = setup(
      [json(429, errorBody('RateLimited', 429)), json(429, errorBody('RateLimited', 429)), json(429, errorBody('RateLimited', 429))],
      { retry: { retries: 2, minDelayMs: 1 } },
    )
    await expect(transport.requestJson(planRequest(getThing, { id: '1' }))).rejects.toBeInstanceOf(RateLimitedError)
    expect(requests).toHaveLength(3)
  })

  it('retries a POST answered 429 (refused before it was acted on), with the same body', async () => {
    const { transport, requests } = setup([json(429, errorBody('RateLimited', 429)), json(200, { ok: true })], { retry: { retries: 2, minDelayMs: 1 } })
    expect(await transport.requestJson(planRequest(createThing, { name: 'x' }))).toEqual({ ok: true })
    expect(requests).toHaveLength(2)
    expect(await requests[1]!.text()).toBe('{"name":"x"}')
  })

  it('does not retry a POST on 429 when retries are off', async () => {
    const { transport, requests } = setup([json(429, errorBody('RateLimited', 429)), json(200, { ok: true })])
    await expect(transport.requestJson(planRequest(createThing, { name: 'x' }))).rejects.toBeInstanceOf(RateLimitedError)
    expect(requests).toHaveLength(1)
  })

  it('never retries POST after a 5xx (it may have been acted on)', async () => {
    const { transport, requests } = setup([json(503, errorBody('Internal', 500)), json(200, { ok: true })], {
      retry: { retries: 3, minDelayMs: 1 },
    })
    await expect(transport.requestJson(planRequest(createThing, { name: 'x' }))).rejects.toBeInstanceOf(InternalError)
    expect(requests).toHaveLength(1)
  })

  it('does not retry a 4xx other than 429', async () => {
    const { transport, requests } = setup([json(404, errorBody('ResourceNotFound', 404))], { retry: { retries: 3, minDelayMs: 1 } })
    await expect(transport.requestJson(planRequest(getThing, { id: '1' }))).rejects.toBeInstanceOf(ResourceNotFoundError)
    expect(requests).toHaveLength(1)
  })

  it('waits for Retry-After before retrying', async () => {
    const { transport, requests } = setup([json(429, errorBody('RateLimited', 429), { 'retry-after': '0.05' }), json(200, { ok: true })], {
      retry: { retries: 1, minDelayMs: 1 },
    })
    const started = Date.now()
    await transport.requestJson(planRequest(getThing, { id: '1' }))
    expect(Date.now() - started).toBeGreaterThanOrEqual(45)
    expect(requests).toHaveLength(2)
  })

  it('reports a network failure as NetworkError', async () => {
    const { transport } = setup([new TypeError('connect ECONNREFUSED')])
    const error = await transport.requestJson(planRequest(getThing, { id: '1' })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NetworkError)
    expect((error as NetworkError).message).toContain('GET http://svc.test/prefix/v1/things/1 failed: connect ECONNREFUSED')
  })

  it('times out a call whose fetch never answers, even if fetch ignores the signal', async () => {
    const { transport } = setup(['hang'], { timeout: 20 })
    const error = await transport.requestJson(planRequest(getThing, { id: '1' })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TimeoutError)
    expect((error as TimeoutError).timeoutMs).toBe(20)
  })

  it('lets one call override the timeout', async () => {
    const { transport } = setup(['hang'])
    await expect(transport.requestJson(planRequest(getThing, { id: '1' }), { timeout: 10 })).rejects.toBeInstanceOf(TimeoutError)
  })

  it('aborts through the caller signal, before or during the call', async () => {
    const early = setup([json(200, { ok: true })])
    const aborted = AbortSignal.abort('stop')
    await expect(early.transport.requestJson(planRequest(getThing, { id: '1' }), { signal: aborted })).rejects.toBeInstanceOf(AbortError)
    expect(early.requests).toHaveLength(0)

    const late = setup(['hang'])
    const controller = new AbortController()
    const pending = late.transport.requestJson(planRequest(getThing, { id: '1' }), { signal: controller.signal })
    controller.abort('user gave up')
    const error = await pending.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AbortError)
    expect((error as AbortError).cause).toBe('user gave up')
  })

  it('aborts a retry wait', async () => {
    const { transport } = setup([json(503, errorBody('Internal', 500), { 'retry-after': '30' }), json(200, { ok: true })], {
      retry: { retries: 1, maxDelayMs: 60_000 },
    })
    const controller = new AbortController()
    const pending = transport.requestJson(planRequest(getThing, { id: '1' }), { signal: controller.signal })
    setTimeout(() => controller.abort(), 10)
    await expect(pending).rejects.toBeInstanceOf(AbortError)
  })

  it('refuses a bad per-call timeout before sending', async () => {
    const { transport, requests } = setup([json(200, { ok: true })])
    await expect(transport.requestJson(planRequest(getThing, { id: '1' }), { timeout: -5 })).rejects.toThrow(
      'timeout: expected a positive number of milliseconds, received -5',
    )
    expect(requests).toHaveLength(0)
  })

  it('refuses a missing path parameter before sending', () => {
    expect(() => planRequest(getThing, {})).toThrow('id: expected a string, received undefined')
  })
})

describe('Transport debug log', () => {
  it('logs one line per response when debug is on, none otherwise', async () => {
    const lines: string[] = []
    const original = console.debug
    console.debug = (line: string) => lines.push(line)
    try {
      await setup([json(200, { ok: true })], { debug: true }).transport.requestJson(planRequest(getThing, { id: '1' }))
      await setup([json(200, { ok: true })]).transport.requestJson(planRequest(getThing, { id: '2' }))
    } finally {
      console.debug = original
    }
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^\[botshelf client\] GET http:\/\/svc\.test\/prefix\/v1\/things\/1 -> 200 in \d+ ms$/)
  })
})

describe('Transport stale connections', () => {
  const reset = () => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) })

  it('sends an idempotent request once more on a fresh connection after a reset, even with retries off', async () => {
    const { transport, requests } = setup([reset(), json(200, { ok: true })])
    expect(await transport.requestJson(planRequest(getThing, { id: '1' }))).toEqual({ ok: true })
    expect(requests).toHaveLength(2)
  })

  it('does it only once, and never for POST', async () => {
    const twice = setup([reset(), reset(), json(200, { ok: true })])
    await expect(twice.transport.requestJson(planRequest(getThing, { id: '1' }))).rejects.toBeInstanceOf(NetworkError)
    expect(twice.requests).toHaveLength(2)
    const post = setup([reset(), json(200, { ok: true })])
    await expect(post.transport.requestJson(planRequest(createThing, { name: 'x' }))).rejects.toBeInstanceOf(NetworkError)
    expect(post.requests).toHaveLength(1)
  })

  it('does not count against the configured retries', async () => {
    const { transport, requests } = setup([reset(), new TypeError('fetch failed'), json(200, { ok: true })], { retry: { retries: 1, minDelayMs: 1 } })
    expect(await transport.requestJson(planRequest(getThing, { id: '1' }))).toEqual({ ok: true })
    expect(requests).toHaveLength(3)
  })
})
