import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServer, type RunningServer } from '../../server/src/index.js'
import type { LoggerLike } from '../../server/src/http/logger.js'

// JSON answers that are not operations (health, errors, 404/405, rate limits) carry every header from the start, so
// @hono/node-server writes them as built (decision 1211). Over a real socket a header set on the answer afterwards
// was lost: these requests go through the real listener and check the headers, the body, the log and the metrics.
let server: RunningServer
const lines: Array<Record<string, unknown>> = []
const logger: LoggerLike = { log: (level, msg, fields) => lines.push({ level, msg, ...fields }) }
beforeAll(async () => {
  server = await createServer({ memory: true, port: 0, logger, rateLimit: false })
})
afterAll(async () => {
  await server.close()
})

describe('JSON answers over a real socket', () => {
  it('GET /health answers {"status":"ok"} with its length, its request id in the header and the log', async () => {
    const response = await fetch(`${server.url}/health`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(response.headers.get('content-length')).toBe('15')
    const requestId = response.headers.get('x-request-id')
    expect(requestId).toMatch(/^req_[0-9a-f]{16}$/)
    expect(await response.text()).toBe('{"status":"ok"}')
    const matching = lines.filter((line) => line.msg === 'request' && line.requestId === requestId)
    expect(matching).toHaveLength(1)
    expect(matching[0]).toMatchObject({ level: 'info', method: 'GET', path: '/health', status: 200, botId: null })
  })

  it('a content PUT answers {} with its length and request id', async () => {
    const boot = await server.app.admin.bootstrap()
    const headers = { authorization: `Bearer ${boot.token!.token}`, 'x-bot-id': boot.bot.id, 'content-type': 'application/json' }
    const defined = await fetch(`${server.url}/v1/files`, { method: 'PUT', headers, body: JSON.stringify({ key: 'answer.txt', size: 5 }) })
    expect(defined.status).toBe(200)
    const { file } = (await defined.json()) as { file: { uploadUrl: string } }
    const response = await fetch(file.uploadUrl, { method: 'PUT', body: 'hello' })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(response.headers.get('content-length')).toBe('2')
    expect(response.headers.get('transfer-encoding')).toBeNull()
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/)
    expect(await response.text()).toBe('{}')
  })

  it('HEAD /health answers 200 without a body', async () => {
    const response = await fetch(`${server.url}/health`, { method: 'HEAD' })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/)
    expect(await response.text()).toBe('')
  })

  it('a 405 names the allowed methods in Allow, beside the wire error body', async () => {
    const response = await fetch(`${server.url}/health`, { method: 'POST' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET')
    const text = await response.text()
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(text)))
    expect(JSON.parse(text)).toMatchObject({ code: 405, type: 'MethodNotFound', metadata: { allowed: ['GET'] } })
  })

  it('a 404 states its length and request id', async () => {
    const response = await fetch(`${server.url}/nope`)
    expect(response.status).toBe(404)
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/)
    const text = await response.text()
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(text)))
    expect(JSON.parse(text)).toMatchObject({ code: 404, type: 'ResourceNotFound' })
  })

  it('the metrics count the bytes of these answers from their length', async () => {
    const metrics = server.app.services.metrics!
    const healthBytes = async (): Promise<number> => {
      const counted = await metrics.registry.getSingleMetric('botshelf_response_bytes_total')!.get()
      return counted.values.find((value) => value.labels.operation === 'GET /health')?.value ?? 0
    }
    const before = await healthBytes()
    await (await fetch(`${server.url}/health`)).text()
    expect((await healthBytes()) - before).toBe(15)
  })

  it('a 429 carries its request id, Retry-After and its length', async () => {
    const limited = await createServer({ memory: true, port: 0, logger, rateLimit: { ip: { perSecond: 1, burst: 1 } } })
    let refused: Response | undefined
    try {
      for (let attempt = 0; attempt < 5 && !refused; attempt++) {
        const response = await fetch(`${limited.url}/`)
        if (response.status === 429) refused = response
        else await response.arrayBuffer()
      }
    } finally {
      await limited.close()
    }
    expect(refused?.status).toBe(429)
    expect(refused!.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/)
    expect(refused!.headers.get('retry-after')).toMatch(/^\d+$/)
    const text = await refused!.text()
    expect(refused!.headers.get('content-length')).toBe(String(Buffer.byteLength(text)))
    expect(JSON.parse(text)).toMatchObject({ code: 429, type: 'RateLimited' })
  })
})
