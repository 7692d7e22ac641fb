import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServer, type RunningServer } from '../../server/src/index.js'
import { silentLogger } from '../../server/src/http/logger.js'

// docs/server.md (Logs): every response carries `x-request-id`. In-process `app.fetch` tests use the platform's
// Response; over a socket @hono/node-server's lightweight Response is in play, and a header set in place on it was
// once lost on every answer: these requests go through the real listener.
let server: RunningServer
beforeAll(async () => {
  server = await createServer({ memory: true, port: 0, logger: silentLogger })
})
afterAll(async () => {
  await server.close()
})

describe('x-request-id over a real socket', () => {
  it.each([
    ['GET', '/health', 200],
    ['GET', '/v1/files', 401],
    ['GET', '/nope', 404],
    ['POST', '/health', 405],
    ['GET', '/v1/openapi.json', 200],
  ])('%s %s answers %i with a request id', async (method, path, status) => {
    const response = await fetch(`${server.url}${path}`, { method })
    expect(response.status).toBe(status)
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/)
    await response.arrayBuffer()
  })
})
