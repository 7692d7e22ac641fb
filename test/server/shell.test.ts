import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorBodySchema } from '../../src/api/error-body.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { echoFeature } from './fixtures/echo-feature.js'

let service: TestService
beforeAll(async () => {
  service = await startTestService({ features: [echoFeature] })
})
afterAll(async () => {
  await service.close()
})

function expectWireError(res: { status: number; body: unknown }, type: string, code: number): void {
  expect(res.status).toBe(code)
  const body = ErrorBodySchema.parse(res.body)
  expect(body.type).toBe(type)
  expect(body.code).toBe(code)
  expect(body.id).toMatch(/^err_\d{14}x[0-9A-F]{8}$/)
}

describe('registerOperation', () => {
  it('validates and passes params, coerced query, header inputs and body to the handler', async () => {
    const res = await service.request('POST', '/v1/echo/abc', {
      query: { flag: true, count: 7, ids: ['one'], tags: { k: ['a', 'b'], other: { exists: false }, x: { not: 'y' } } },
      headers: { 'x-destination-bot-id': 'bot-2' },
      body: { name: 'n', size: 3 },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(res.body).toEqual({
      id: 'abc',
      query: { flag: true, count: 7, ids: ['one'], tags: { k: ['a', 'b'], other: { exists: false }, x: { not: 'y' } } },
      body: { name: 'n', size: 3 },
      headers: { destinationBotId: 'bot-2' },
      principal: { kind: 'bot', botId: service.botId, tokenId: expect.stringMatching(/^tok_/) },
    })
  })

  it('accepts tags as URL-encoded JSON', async () => {
    const res = await service.request('POST', `/v1/echo/a?tags=${encodeURIComponent(JSON.stringify({ k: 'v' }))}`, { body: { name: 'n' } })
    expect(res.status).toBe(200)
    expect(res.body.query).toEqual({ tags: { k: 'v' } })
  })

  it('decodes a %2F inside a path segment exactly once', async () => {
    expect((await service.request('GET', '/v1/echo/some%2Fkey.txt')).body).toEqual({ id: 'some/key.txt' })
    expect((await service.request('GET', '/v1/echo/100%25%2Fdone')).body).toEqual({ id: '100%/done' })
    expect((await service.request('GET', '/v1/echo/a%252Fb')).body).toEqual({ id: 'a%2Fb' })
    expect((await service.request('GET', '/v1/echo/caf%C3%A9%20x')).body).toEqual({ id: 'café x' })
  })

  it('names the field, what was expected and what was received on a bad body', async () => {
    const res = await service.request('POST', '/v1/echo/a', { body: { name: 42 } })
    expectWireError(res, 'InvalidPayload', 400)
    expect(res.body.message).toContain('name: expected string, received number (42)')
    expect(res.body.metadata.issues[0]).toMatchObject({ path: 'name', expected: 'string' })
  })

  it('refuses unknown body keys of a strict schema', async () => {
    const res = await service.request('POST', '/v1/echo/a', { body: { name: 'n', extra: 1 } })
    expectWireError(res, 'InvalidPayload', 400)
    expect(res.body.message).toContain('"extra"')
  })

  it('reports a query value that cannot be coerced with its received value', async () => {
    const res = await service.request('POST', '/v1/echo/a?count=many&flag=yes', { body: { name: 'n' } })
    expectWireError(res, 'InvalidPayload', 400)
    expect(res.body.message).toContain('count: expected number, received "many"')
    expect(res.body.message).toContain('flag: expected boolean, received "yes"')
  })

  it('refuses more than 50 ids', async () => {
    const ids = Array.from({ length: 51 }, (_, i) => `id${i}`)
    const res = await service.request('POST', '/v1/echo/a', { query: { ids }, body: { name: 'n' } })
    expectWireError(res, 'InvalidPayload', 400)
    expect(res.body.message).toContain('ids: expected at most 50 items, received 51 items')
  })

  it('answers malformed JSON with InvalidPayload', async () => {
    const res = await service.request('POST', '/v1/echo/a', { body: '{"name": ' })
    expectWireError(res, 'InvalidPayload', 400)
    expect(res.body.message).toMatch(/not valid JSON/)
  })

  it('answers a missing body with InvalidPayload naming the root', async () => {
    const res = await service.request('POST', '/v1/echo/a')
    expectWireError(res, 'InvalidPayload', 400)
    expect(res.body.message).toContain('(root): expected object, received missing')
  })

  it('accepts the {} body the official client sends on DELETE, and no body at all', async () => {
    expect((await service.request('DELETE', '/v1/echo/a', { body: {} })).body).toEqual({})
    const bare = await service.app.fetch(
      new Request('http://x/v1/echo/a', { method: 'DELETE', headers: { authorization: `Bearer ${service.tokens.bot}`, 'x-bot-id': service.botId } }),
    )
    expect(bare.status).toBe(200)
  })

  it('hides the details of unexpected errors behind a generic Internal and logs them', async () => {
    const res = await service.request('GET', '/v1/crash')
    expectWireError(res, 'Internal', 500)
    expect(res.text).not.toContain('secret')
    const logged = service.logs.find((line) => line.msg === 'unhandled error' && String(line.error).includes('secret database path'))
    expect(logged).toBeDefined()
  })

  it('validates responses when checkResponses is on', async () => {
    const res = await service.request('GET', '/v1/bad-response')
    expectWireError(res, 'Internal', 500)
    expect(service.logs.some((l) => String(l.error).includes('Response of badResponse does not match its schema'))).toBe(true)
  })
})

describe('body limits', () => {
  it('refuses a Files API body over 1 MB by its declared length', async () => {
    const res = await service.request('POST', '/v1/echo/a', { body: { name: 'n', blob: 'x'.repeat(1024 * 1024) } })
    expectWireError(res, 'PayloadTooLarge', 413)
  })

  it('counts streamed bytes when no length is declared, and stops reading at the limit', async () => {
    let pulled = 0
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024))
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"name":"n","blob":"'))
      },
      pull(controller) {
        pulled += 1
        if (pulled > 1000) controller.close()
        else controller.enqueue(chunk)
      },
    })
    const res = await service.app.fetch(
      new Request('http://x/v1/echo/a', {
        method: 'POST',
        headers: { authorization: `Bearer ${service.tokens.bot}`, 'x-bot-id': service.botId, 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    )
    expect(res.status).toBe(413)
    expect(pulled).toBeLessThan(40) // about 1 MB of 64 KB chunks, far from the 64 MB offered
  })

  it('allows a 2 MB body under /v1/tables (40 MB limit)', async () => {
    const res = await service.request('POST', '/v1/tables/echo', { body: { blob: 'y'.repeat(2 * 1024 * 1024) } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ length: 2 * 1024 * 1024 })
  })
})

describe('unknown routes', () => {
  it('answers ResourceNotFound for an unknown path', async () => {
    const res = await service.request('GET', '/v1/nothing-here')
    expectWireError(res, 'ResourceNotFound', 404)
  })

  it('answers MethodNotFound for a known path with another method', async () => {
    const res = await service.request('PATCH', '/v1/echo/a', { body: {} })
    expectWireError(res, 'MethodNotFound', 405)
    expect(res.body.metadata.allowed).toEqual(['DELETE', 'GET', 'POST'])
  })

  it('answers 404 outside /v1 without auth', async () => {
    const res = await service.request('GET', '/favicon.ico', { token: null, botId: null })
    expectWireError(res, 'ResourceNotFound', 404)
  })
})

describe('auth', () => {
  it('401 without a token, even without x-bot-id', async () => {
    expectWireError(await service.request('GET', '/v1/echo/a', { token: null }), 'Unauthorized', 401)
    expectWireError(await service.request('GET', '/v1/echo/a', { token: null, botId: null }), 'Unauthorized', 401)
  })

  it('401 for an unknown token and a non-bearer scheme', async () => {
    expectWireError(await service.request('GET', '/v1/echo/a', { token: 'bs_not-a-real-token' }), 'Unauthorized', 401)
    const basic = await service.request('GET', '/v1/echo/a', { headers: { authorization: 'Basic abc' } })
    expectWireError(basic, 'Unauthorized', 401)
  })

  it('400 InvalidPayload without x-bot-id', async () => {
    const res = await service.request('GET', '/v1/echo/a', { botId: null })
    expectWireError(res, 'InvalidPayload', 400)
    expect(res.body.message).toContain('x-bot-id')
  })

  it('403 for a valid token bound to another bot', async () => {
    expectWireError(await service.request('GET', '/v1/echo/a', { botId: service.otherBotId }), 'Forbidden', 403)
    expectWireError(await service.request('GET', '/v1/echo/a', { token: 'otherBot', botId: service.botId }), 'Forbidden', 403)
    expectWireError(await service.request('GET', '/v1/echo/a', { botId: 'no-such-bot' }), 'Forbidden', 403)
  })

  it('matches the bearer scheme case-insensitively', async () => {
    for (const scheme of ['bearer', 'Bearer', 'BEARER']) {
      const res = await service.request('GET', '/v1/echo/a', { headers: { authorization: `${scheme} ${service.tokens.bot}` } })
      expect(res.status).toBe(200)
    }
  })

  it('resolves integration and member principals', async () => {
    const alpha = await service.request('POST', '/v1/echo/a', { token: 'alpha', body: { name: 'n' } })
    expect(alpha.body.principal).toMatchObject({ kind: 'integration', integrationName: 'alpha', botId: service.botId })
    const billing = await service.request('POST', '/v1/echo/a', { token: 'billing_manager', body: { name: 'n' } })
    expect(billing.body.principal).toMatchObject({ kind: 'member', role: 'billing_manager', userId: expect.stringMatching(/^user_/) })
  })

  it('stops accepting a revoked token at once', async () => {
    const created = await service.app.admin.createToken({ botId: service.botId, role: 'developer' })
    expect((await service.request('GET', '/v1/echo/a', { token: created.token })).status).toBe(200)
    await service.app.admin.revokeToken(created.id)
    expectWireError(await service.request('GET', '/v1/echo/a', { token: created.token }), 'Unauthorized', 401)
  })

  it('serves public routes without auth', async () => {
    const res = await service.request('GET', '/content/abc', { token: null, botId: null })
    expect(res.status).toBe(200)
    expect(res.text).toBe('public abc')
  })
})

describe('request log', () => {
  it('writes one structured line per request', async () => {
    const res = await service.request('GET', '/v1/echo/logged')
    const requestId = res.headers.get('x-request-id')
    expect(requestId).toMatch(/^req_[0-9a-f]{16}$/)
    const lines = service.logs.filter((l) => l.msg === 'request' && l.requestId === requestId)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ method: 'GET', path: '/v1/echo/logged', status: 200, botId: service.botId })
    expect(typeof lines[0]!.ms).toBe('number')
  })

  it('logs the status of failed requests too', async () => {
    const res = await service.request('GET', '/v1/echo/a', { token: null })
    const line = service.logs.find((l) => l.msg === 'request' && l.requestId === res.headers.get('x-request-id'))
    expect(line).toMatchObject({ status: 401 })
  })
})

describe('operator routes', () => {
  it('answers / and /health without auth', async () => {
    const root = await service.request('GET', '/', { token: null, botId: null })
    expect(root.status).toBe(200)
    expect(root.body).toEqual({ name: 'botshelf', version: expect.stringMatching(/^\d+\.\d+\.\d+/), openapi: '/v1/openapi.json' })
    const health = await service.request('GET', '/health', { token: null, botId: null })
    expect(health.body).toEqual({ status: 'ok' })
  })
})
