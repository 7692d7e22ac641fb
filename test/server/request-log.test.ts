import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp, type BotshelfApp } from '../../server/src/http/app.js'
import type { LoggerLike } from '../../server/src/http/logger.js'

// docs/server.md (Logs): every response carries `x-request-id`, and the request's log line has the status the
// caller got, including answers made outside the operation routes (404, 405, preflights, content routes).

let plain: BotshelfApp
let withCors: BotshelfApp
const lines: Array<Record<string, unknown>> = []
const logger: LoggerLike = { log: (level, msg, fields) => lines.push({ level, msg, ...fields }) }

beforeAll(async () => {
  plain = await createApp({ memory: true, logger })
  withCors = await createApp({ memory: true, logger, corsOrigins: ['http://localhost:5173'] })
})
afterAll(async () => {
  await plain.close()
  await withCors.close()
})

async function sendTo(app: BotshelfApp, method: string, path: string, headers: Record<string, string> = {}): Promise<{ response: Response; line: Record<string, unknown> }> {
  const response = await app.fetch(new Request(`http://local${path}`, { method, headers }))
  await response.arrayBuffer()
  const requestId = response.headers.get('x-request-id')
  expect(requestId).toMatch(/^req_[0-9a-f]{16}$/)
  const matching = lines.filter((line) => line.msg === 'request' && line.requestId === requestId)
  expect(matching).toHaveLength(1)
  return { response, line: matching[0]! }
}

describe.each([
  ['without CORS', () => plain],
  ['with CORS', () => withCors],
])('request log and x-request-id outside the operation routes (%s)', (_name, appOf) => {
  const send = (method: string, path: string, headers: Record<string, string> = {}) => sendTo(appOf(), method, path, headers)

  it('logs 404 for an unknown path, with the id on the wire error', async () => {
    const { response, line } = await send('GET', '/nope')
    expect(response.status).toBe(404)
    expect(line).toMatchObject({ method: 'GET', path: '/nope', status: 404 })
    expect(response.headers.get('content-type')).toContain('application/json')
  })

  it('logs 405 for POST /health and DELETE /, with the Allow header', async () => {
    const health = await send('POST', '/health')
    expect(health.response.status).toBe(405)
    expect(health.response.headers.get('allow')).toBe('GET')
    expect(health.line).toMatchObject({ method: 'POST', path: '/health', status: 405 })
    const root = await send('DELETE', '/')
    expect(root.response.status).toBe(405)
    expect(root.line).toMatchObject({ method: 'DELETE', path: '/', status: 405 })
  })

  it('logs the 401 of an unknown /v1 route asked without a token', async () => {
    const { response, line } = await send('GET', '/v1/nope')
    expect(response.status).toBe(401)
    expect(line).toMatchObject({ status: 401 })
  })

  it('logs the errors of the signed content routes', async () => {
    const { response, line } = await send('GET', '/v1/content/files/file_01NOPE?token=forged')
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(response.status).toBeLessThan(500)
    expect(line).toMatchObject({ path: '/v1/content/files/file_01NOPE', status: response.status })
  })

  it('logs 200 and the id for the operator routes', async () => {
    const { response, line } = await send('GET', '/health')
    expect(response.status).toBe(200)
    expect(line).toMatchObject({ status: 200 })
    expect((await send('HEAD', '/')).line).toMatchObject({ method: 'HEAD', status: 200 })
  })
})

describe('request log of a CORS preflight', () => {
  it('logs the 204 and gives the id', async () => {
    const { response, line } = await sendTo(withCors, 'OPTIONS', '/v1/files', {
      origin: 'http://localhost:5173',
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'authorization,x-bot-id',
    })
    expect(response.status).toBe(204)
    expect(line).toMatchObject({ method: 'OPTIONS', path: '/v1/files', status: 204 })
  })
})
