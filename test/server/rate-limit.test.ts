import { request as httpRequest } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp } from '../../server/src/http/app.js'
import { silentLogger } from '../../server/src/http/logger.js'
import { MemoryRateLimitStore, RateLimitOptionError } from '../../server/src/http/rate-limit/index.js'
import { createFakeClock } from '../../src/testing/fake-clock.js'
import { startTestService, type TestService } from '../helpers/service.js'

const services: TestService[] = []
async function start(options: Parameters<typeof startTestService>[0]): Promise<TestService> {
  const service = await startTestService(options)
  services.push(service)
  return service
}
afterEach(async () => {
  for (const service of services.splice(0)) await service.close()
})

const ERROR_ID = /^err_\d{14}x[0-9A-F]{8}$/

/** A request through the app in process, as if it came from `remoteAddress`. */
async function fromAddress(service: TestService, remoteAddress: string, method: string, url: string, body?: BodyInit): Promise<Response> {
  return service.app.fetch(new Request(url, { method, ...(body !== undefined ? { body } : {}) }), { remoteAddress })
}

describe('rate limiting per token (authenticated /v1 routes)', () => {
  it('answers 429 RateLimited with the limit in the message and a Retry-After once the bucket is empty', async () => {
    const clock = createFakeClock('2026-11-22T00:00:00Z')
    const service = await start({ now: clock.now, rateLimit: { token: { perSecond: 1, burst: 3 }, ip: false } })
    for (let i = 0; i < 3; i++) expect((await service.request('GET', '/v1/files')).status).toBe(200)
    const refused = await service.request('GET', '/v1/files')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(refused.headers.get('content-type')).toBe('application/json; charset=UTF-8')
    expect(refused.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/)
    expect(refused.body).toEqual({
      id: expect.stringMatching(ERROR_ID),
      code: 429,
      type: 'RateLimited',
      message: 'Rate limit exceeded: this token may send 1 request per second (bursts of 3); retry in 1 s',
      metadata: { scope: 'token', limit: '1/s,burst=3', retryAfterSeconds: 1 },
    })
    const tokenId = (await service.app.admin.listTokens({ botId: service.botId })).find((t) => t.role === 'bot')!.id
    expect(service.logs).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: 'rate limited', scope: 'token', tokenId, limit: '1/s,burst=3', retryAfterSeconds: 1, path: '/v1/files' }),
    )
    expect(service.logs).toContainEqual(expect.objectContaining({ msg: 'request', status: 429, path: '/v1/files', requestId: refused.headers.get('x-request-id') }))
  })

  it('lets the caller through again once the Retry-After has passed, and not before', async () => {
    const clock = createFakeClock('2026-11-22T00:00:00Z')
    // 15 a minute: one token every 4 s.
    const service = await start({ now: clock.now, rateLimit: '15/m,burst=1,ip=off' })
    expect((await service.request('GET', '/v1/files')).status).toBe(200)
    const first = await service.request('GET', '/v1/files')
    expect(first.status).toBe(429)
    expect(first.headers.get('retry-after')).toBe('4')
    clock.advance(3_900)
    const early = await service.request('GET', '/v1/files')
    expect(early.status).toBe(429)
    // 100 ms are missing: the header rounds up to a whole second, never 0.
    expect(early.headers.get('retry-after')).toBe('1')
    clock.advance(100)
    expect((await service.request('GET', '/v1/files')).status).toBe(200)
    expect((await service.request('GET', '/v1/files')).headers.get('retry-after')).toBe('4')
  })

  it("keeps each token's bucket to itself: one token's flood does not limit another, even of the same bot", async () => {
    const clock = createFakeClock('2026-11-22T00:00:00Z')
    const service = await start({ now: clock.now, rateLimit: { token: { perSecond: 1, burst: 2 } } })
    const statuses = []
    for (let i = 0; i < 12; i++) statuses.push((await service.request('GET', '/v1/files', { token: 'bot' })).status)
    expect(statuses).toEqual([200, 200, ...Array.from({ length: 10 }, () => 429)])
    expect((await service.request('GET', '/v1/files', { token: 'viewer' })).status).toBe(200)
    expect((await service.request('GET', '/v1/files', { token: 'alpha' })).status).toBe(200)
    expect((await service.request('GET', '/v1/files', { token: 'otherBot' })).status).toBe(200)
  })

  it('refuses before the handler runs: a refused write changes nothing', async () => {
    const clock = createFakeClock('2026-11-22T00:00:00Z')
    const service = await start({ now: clock.now, rateLimit: { token: { perSecond: 1, burst: 1 } } })
    expect((await service.request('PUT', '/v1/files', { body: { key: 'first.txt', size: 1 } })).status).toBe(200)
    const refused = await service.request('PUT', '/v1/files', { body: { key: 'second.txt', size: 1 } })
    expect(refused.status).toBe(429)
    clock.advance(1_000)
    const listed = await service.request('GET', '/v1/files')
    expect(listed.body.files.map((file: { key: string }) => file.key)).toEqual(['first.txt'])
  })

  it('refuses no request of a token by default (decision 1441); a token limit the operator sets refuses the 501st', async () => {
    const clock = createFakeClock('2026-11-22T00:00:00Z')
    const byDefault = await start({ now: clock.now })
    const limited = await start({ now: clock.now, rateLimit: '100/s,burst=500' })
    const off = await start({ now: clock.now, rateLimit: 'off' })
    const statuses = async (service: TestService): Promise<number[]> => {
      const list: number[] = []
      for (let i = 0; i < 501; i++) list.push((await service.request('GET', '/v1/files/tags')).status)
      return list
    }
    // The fake clock never moves: no bucket refills, so any per-token limit would show here.
    expect(new Set(await statuses(byDefault))).toEqual(new Set([200]))
    expect(byDefault.app.rateLimits?.token).toBeNull()
    expect(byDefault.app.rateLimits?.ip).toEqual({ perSecond: 200, burst: 1000 })
    const withLimit = await statuses(limited)
    expect(withLimit.slice(0, 500).every((status) => status === 200)).toBe(true)
    expect(withLimit[500]).toBe(429)
    expect(new Set(await statuses(off))).toEqual(new Set([200]))
    expect(off.app.rateLimits).toBeNull()
  })
})

describe('rate limit options', () => {
  it('refuses a limit that cannot work before opening anything', async () => {
    await expect(createApp({ memory: true, logger: silentLogger, rateLimit: 'fast' })).rejects.toThrow(RateLimitOptionError)
    await expect(createApp({ memory: true, logger: silentLogger, rateLimit: { token: { perSecond: 5, burst: 0 } } })).rejects.toThrow(
      'rateLimit.token: burst must be a whole number from 1',
    )
  })

  it('counts in the store it is given, so servers can share one', async () => {
    const store = new MemoryRateLimitStore()
    const clock = createFakeClock('2026-11-22T00:00:00Z')
    const service = await start({ now: clock.now, rateLimit: { token: { perSecond: 1, burst: 1 }, store } })
    const tokenId = (await service.app.admin.listTokens({ botId: service.botId })).find((t) => t.role === 'bot')!.id
    // Another server sharing the store spent this token's request already.
    store.take(`token:${tokenId}`, 1, clock.now().getTime(), { perSecond: 1, burst: 1 })
    expect((await service.request('GET', '/v1/files')).status).toBe(429)
  })
})

describe('rate limiting per IP address (routes without a token)', () => {
  it('limits signed content URLs and /health per address; an upload counts as one request', async () => {
    const clock = createFakeClock('2026-11-22T00:00:00Z')
    const service = await start({ now: clock.now, rateLimit: { ip: { perSecond: 1, burst: 2 } } })
    const size = 1024 * 1024
    const { body } = await service.request('PUT', '/v1/files', { body: { key: 'big.bin', size } })
    const upload = await fromAddress(service, '203.0.113.7', 'PUT', body.file.uploadUrl, new Uint8Array(size).fill(7))
    expect(upload.status).toBe(200)
    const { body: after } = await service.request('GET', `/v1/files/${body.file.id}`)
    expect((await fromAddress(service, '203.0.113.7', 'GET', after.file.url)).status).toBe(200)
    const refused = await fromAddress(service, '203.0.113.7', 'GET', after.file.url)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(await refused.json()).toMatchObject({
      code: 429,
      type: 'RateLimited',
      message: 'Rate limit exceeded: one IP address may send, on routes without a token, 1 request per second (bursts of 2); retry in 1 s',
      metadata: { scope: 'ip', limit: '1/s,burst=2' },
    })
    expect((await fromAddress(service, '::ffff:203.0.113.7', 'GET', `${service.url}/health`)).status).toBe(429)
    // Another address has its own bucket; the token routes of the first are counted per token.
    expect((await fromAddress(service, '198.51.100.1', 'GET', after.file.url)).status).toBe(200)
    const authed = new Request(`${service.url}/v1/files`, { headers: { authorization: `Bearer ${service.tokens.bot}`, 'x-bot-id': service.botId } })
    expect((await service.app.fetch(authed, { remoteAddress: '203.0.113.7' })).status).toBe(200)
    expect(service.logs).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'rate limited', scope: 'ip', address: '203.0.113.7' }))
    clock.advance(1_000)
    expect((await fromAddress(service, '203.0.113.7', 'GET', after.file.url)).status).toBe(200)
  })

  it('puts the hosts of one IPv6 /64 in one bucket', async () => {
    const service = await start({ now: createFakeClock().now, rateLimit: { ip: { perSecond: 1, burst: 1 } } })
    expect((await fromAddress(service, '2001:db8:1:2::a', 'GET', `${service.url}/health`)).status).toBe(200)
    expect((await fromAddress(service, '2001:db8:1:2::b', 'GET', `${service.url}/health`)).status).toBe(429)
    expect((await fromAddress(service, '2001:db8:1:3::a', 'GET', `${service.url}/health`)).status).toBe(200)
  })

  it('keys on the peer address of real connections (127.0.0.1 and 127.0.0.2 apart)', async () => {
    const service = await start({ listen: true, rateLimit: { ip: { perSecond: 0.01, burst: 1 } } })
    const get = (localAddress: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const req = httpRequest(`${service.url}/health`, { localAddress, agent: false }, (res) => {
          res.resume()
          res.once('end', () => resolve(res.statusCode ?? 0))
        })
        req.once('error', reject)
        req.end()
      })
    expect(await get('127.0.0.1')).toBe(200)
    expect(await get('127.0.0.1')).toBe(429)
    expect(await get('127.0.0.2')).toBe(200)
    expect(await get('127.0.0.2')).toBe(429)
  })

  it('is listed in the OpenAPI document: every route without a token documents its 429 and Retry-After', async () => {
    const service = await start({ now: createFakeClock().now })
    const doc = (await service.request('GET', '/v1/openapi.json', { token: null })).body
    const tokenless = Object.entries(doc.paths as Record<string, Record<string, { security?: unknown[]; responses: Record<string, any> }>>).flatMap(
      ([path, methods]) => Object.entries(methods).filter(([, item]) => Array.isArray(item.security) && item.security.length === 0).map(([method, item]) => ({ path, method, item })),
    )
    expect(tokenless.map(({ path }) => path)).toEqual(expect.arrayContaining(['/', '/health', '/v1/openapi.json', '/v1/content/upload/{fileId}', '/v1/content/files/{fileId}']))
    for (const { path, method, item } of tokenless) {
      expect(item.responses['429'], `${method} ${path}`).toMatchObject({ headers: { 'Retry-After': expect.anything() } })
    }
  })

  it('does not limit by address when the app is called without one (in process)', async () => {
    const service = await start({ now: createFakeClock().now, rateLimit: { ip: { perSecond: 1, burst: 1 } } })
    for (let i = 0; i < 5; i++) expect((await service.app.fetch(new Request(`${service.url}/health`))).status).toBe(200)
  })
})
