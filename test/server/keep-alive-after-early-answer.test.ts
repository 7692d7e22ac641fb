import { Agent, request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../helpers/service.js'

interface Answer {
  status: number
  connection: string | undefined
}

function send(url: URL, agent: Agent, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: url.hostname, port: url.port, method, path, agent, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (incoming) => {
        incoming.resume()
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, connection: incoming.headers.connection }))
      },
    )
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

// A request refused on its headers (bad token, no permission, too large) leaves its body unread. The connection
// must then say `close`, or a keep-alive client reuses a socket the server destroys a moment later and its next
// request dies with "socket hang up" and no answer.
describe('keep-alive after an answer given before the body was read', () => {
  let service: TestService
  beforeAll(async () => {
    service = await startTestService({ listen: true, rateLimit: false })
  })
  afterAll(async () => service?.close())

  it('the next request on the same agent always gets an answer', async () => {
    const url = new URL(service.url)
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const body = JSON.stringify({ rows: [{ text: 'x'.repeat(300_000) }] })
    try {
      for (let round = 0; round < 3; round++) {
        const refused = await send(url, agent, 'POST', '/v1/tables/anyTable/rows', { authorization: 'Bearer bs_wrong', 'x-bot-id': service.botId, 'content-type': 'application/json' }, body)
        expect(refused).toEqual({ status: 401, connection: 'close' })
        expect((await send(url, agent, 'GET', '/health', {})).status).toBe(200)
      }
    } finally {
      agent.destroy()
    }
  })

  it('a small body read in full keeps the connection alive', async () => {
    const url = new URL(service.url)
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      const answer = await send(url, agent, 'POST', '/v1/tables', { authorization: `Bearer ${service.tokens.bot}`, 'x-bot-id': service.botId, 'content-type': 'application/json' }, '{"name":"bad name"}')
      expect(answer).toEqual({ status: 400, connection: 'keep-alive' })
    } finally {
      agent.destroy()
    }
  })
})
