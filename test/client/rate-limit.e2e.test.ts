import { createRequire } from 'node:module'
import { afterEach, describe, expect, it } from 'vitest'
import { RateLimitedError } from '../../src/client/index.js'
import { startClientService, type ClientTestService } from './service.js'
import { failure } from '../helpers/failure.js'

const botpress = createRequire(import.meta.url)('@botpress/client') as typeof import('@botpress/client')

const services: ClientTestService[] = []
afterEach(async () => {
  for (const service of services.splice(0)) await service.close()
})

/** One request a second per token, no burst: a second call right after the first is refused for about 1 s. */
async function start(listen: boolean): Promise<ClientTestService> {
  const service = await startClientService({ listen, rateLimit: { token: { perSecond: 1, burst: 1 }, ip: false } })
  services.push(service)
  return service
}

const refusals = (service: ClientTestService): number => service.logs.filter((line) => line.msg === 'request' && line.status === 429).length

describe('botshelf client on a 429', () => {
  it('throws RateLimitedError with the wire fields when retries are off', async () => {
    const service = await start(false)
    const client = service.client('bot')
    await client.listFiles({})
    const error = await failure(() => client.listFiles({}))
    expect(error).toBeInstanceOf(RateLimitedError)
    expect(error).toMatchObject({
      type: 'RateLimited',
      code: 429,
      message: 'Rate limit exceeded: this token may send 1 request per second (bursts of 1); retry in 1 s',
      metadata: { scope: 'token', limit: '1/s,burst=1', retryAfterSeconds: 1 },
    })
  })

  it('retries an idempotent call after the Retry-After (not its own shorter backoff), and it passes', async () => {
    const service = await start(false)
    const client = service.client('bot', { retry: { retries: 3, minDelayMs: 1 } })
    await client.listFiles({})
    const started = Date.now()
    const { files } = await client.listFiles({})
    const waited = Date.now() - started
    expect(files).toEqual([])
    expect(refusals(service)).toBe(1)
    expect(waited).toBeGreaterThanOrEqual(950)
    expect(waited).toBeLessThan(3_000)
  })

  it('retries a POST answered 429 too (refused before it was acted on): after the Retry-After, it passes', async () => {
    const service = await start(false)
    const client = service.client('bot', { retry: { retries: 3, minDelayMs: 1 } })
    await client.listFiles({})
    const started = Date.now()
    const error = await failure(() => client.findTableRows({ table: 'notesTable' }))
    // The retry got through the rate limit and reached the route: the table does not exist.
    expect((error as { type?: string }).type).toBe('ResourceNotFound')
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    expect(refusals(service)).toBe(1)
  })

  it('does not retry a POST on a 429 when retries are off', async () => {
    const service = await start(false)
    const client = service.client('bot')
    await client.listFiles({})
    expect(await failure(() => client.findTableRows({ table: 'notesTable' }))).toBeInstanceOf(RateLimitedError)
    expect(refusals(service)).toBe(1)
  })
})

describe('@botpress/client on a 429 (over a real port)', () => {
  it('throws RateLimitedError (type RateLimited, code 429) without its retry option', async () => {
    const service = await start(true)
    const client = service.botpressClient('bot')
    await client.listFiles({})
    const error = await failure(() => client.listFiles({}))
    expect(error).toBeInstanceOf(botpress.RateLimitedError)
    expect(botpress.isApiError(error)).toBe(true)
    expect(error).toMatchObject({
      type: 'RateLimited',
      code: 429,
      message: 'Rate limit exceeded: this token may send 1 request per second (bursts of 1); retry in 1 s',
      id: expect.stringMatching(/^err_\d{14}x[0-9A-F]{8}$/),
    })
  })

  it('with retry (axios-retry defaults) waits the Retry-After and gets through', async () => {
    const service = await start(true)
    const client = new botpress.Client({ apiUrl: service.url, token: service.tokens.bot, botId: service.botId, retry: { retries: 2 } })
    await client.listFiles({})
    const started = Date.now()
    const { files } = await client.listFiles({})
    const waited = Date.now() - started
    expect(files).toEqual([])
    expect(refusals(service)).toBe(1)
    // axios-retry's default delay is none; it waits because it reads Retry-After.
    expect(waited).toBeGreaterThanOrEqual(950)
    expect(waited).toBeLessThan(3_000)
  })
})
