import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp, type BotshelfApp } from '../../server/src/http/app.js'
import { silentLogger } from '../../server/src/http/logger.js'
import { echoFeature } from './fixtures/echo-feature.js'

let withCors: BotshelfApp
let without: BotshelfApp
let botId: string
let token: string
beforeAll(async () => {
  withCors = await createApp({ memory: true, logger: silentLogger, features: [echoFeature], corsOrigins: ['http://localhost:5173'] })
  without = await createApp({ memory: true, logger: silentLogger, features: [echoFeature] })
  botId = (await withCors.admin.createBot()).id
  token = (await withCors.admin.createToken({ botId, role: 'bot' })).token
})
afterAll(async () => {
  await withCors.close()
  await without.close()
})

const preflight = (origin: string) =>
  new Request('http://x/v1/echo/a', {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,x-bot-id,content-type' },
  })

describe('CORS', () => {
  it('answers the preflight of an allowed origin before auth', async () => {
    const res = await withCors.fetch(preflight('http://localhost:5173'))
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    expect(res.headers.get('access-control-allow-headers')).toContain('x-bot-id')
  })

  it('gives no CORS headers to other origins, nor without the option', async () => {
    expect((await withCors.fetch(preflight('http://evil.example'))).headers.get('access-control-allow-origin')).toBeNull()
    expect((await without.fetch(preflight('http://localhost:5173'))).headers.get('access-control-allow-origin')).toBeNull()
  })

  it('adds the headers to successful and error responses', async () => {
    const ok = await withCors.fetch(
      new Request('http://x/v1/echo/a', { headers: { origin: 'http://localhost:5173', authorization: `Bearer ${token}`, 'x-bot-id': botId } }),
    )
    expect(ok.status).toBe(200)
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    expect(ok.headers.get('access-control-expose-headers')).toContain('x-request-id')
    const denied = await withCors.fetch(new Request('http://x/v1/echo/a', { headers: { origin: 'http://localhost:5173' } }))
    expect(denied.status).toBe(401)
    expect(denied.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
  })
})
