import { request as httpRequest } from 'node:http'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineOperation } from '../../src/api/operation.js'
import { createServer, defaultFeatures, type RunningServer } from '../../server/src/index.js'
import type { AppEnv, ServiceFeature } from '../../server/src/http/env.js'
import type { LoggerLike } from '../../server/src/http/logger.js'
import { registerDirectOperation, registerOperation } from '../../server/src/http/register-route.js'

// Decision 1235: a plain getFile is answered on node:http by the direct lane, every other request by the Hono app.
// The lane must be invisible: the same status, body, headers, log line, metrics and rate-limit spending as the Hono
// path. Each answer here is compared with the same request sent with an empty query string (`?`), which the lane
// never takes, on a server with a fixed clock (so signed URLs are equal).

const clock = new Date('2026-11-24T12:00:00.000Z')
const lines: Array<Record<string, unknown>> = []
const logger: LoggerLike = { log: (level, msg, fields) => lines.push({ level, msg, ...fields }) }

interface RawAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** One request over a socket with the raw header list given (repeated names stay repeated). */
function send(base: string, method: string, path: string, rawHeaders: string[], body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const url = new URL(base)
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers: ['host', url.host, ...rawHeaders], agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** Counts the requests the lane took, by wrapping the app's entry point (the server looks it up per request). */
function countTaken(server: RunningServer): { taken: number } {
  const counter = { taken: 0 }
  const answer = server.app.answerDirect.bind(server.app)
  Object.assign(server.app, {
    answerDirect: (...args: Parameters<typeof answer>) => {
      const taken = answer(...args)
      if (taken) counter.taken += 1
      return taken
    },
  })
  return counter
}

/** What must match between the two paths: status, body (error ids aside) and the headers that carry meaning. */
function comparable(answer: RawAnswer): unknown {
  const body = answer.body.startsWith('{') ? (JSON.parse(answer.body) as Record<string, unknown>) : answer.body
  if (typeof body === 'object' && body !== null && typeof body.id === 'string' && body.id.startsWith('err_')) body.id = 'err_*'
  return {
    status: answer.status,
    body,
    contentType: answer.headers['content-type'],
    contentLength: answer.headers['content-length'],
    requestId: typeof answer.headers['x-request-id'] === 'string' ? /^req_[0-9a-f]{16}$/.test(answer.headers['x-request-id']) : false,
    allow: answer.headers.allow,
  }
}

describe('direct lane: the same answers as the Hono app', () => {
  let server: RunningServer
  let counter: { taken: number }
  let auth: string[]
  let botId: string
  let fileId: string
  const keys = ['a/b.txt', 'space name.txt', 'ünïcødé/ファイル.txt', 'percent%25sign.txt', 'plus+sign&eq=1.txt', "quote'paren(1).txt", 'tags', 'search', 'dot.in.middle', '.hidden']

  beforeAll(async () => {
    server = await createServer({ memory: true, port: 0, now: () => clock, rateLimit: false, logger })
    counter = countTaken(server)
    const { bot, token } = await server.app.admin.bootstrap()
    botId = bot.id
    auth = ['authorization', `Bearer ${token!.token}`, 'x-bot-id', bot.id]
    for (const key of keys) {
      const defined = await fetch(`${server.url}/v1/files`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token!.token}`, 'x-bot-id': bot.id, 'content-type': 'application/json' },
        body: JSON.stringify({ key, size: 5, tags: { kind: 'lane' } }),
      })
      const { file } = (await defined.json()) as { file: { id: string; uploadUrl: string } }
      if (key === 'a/b.txt') fileId = file.id
      expect((await fetch(file.uploadUrl, { method: 'PUT', body: 'hello' })).status).toBe(200)
    }
  })
  afterAll(async () => {
    await server.close()
  })

  it.each(keys)('answers getFile of %j as the Hono app does, and takes it unless the router gives the path to another route', async (key) => {
    const path = `/v1/files/${encodeURIComponent(key)}`
    const before = counter.taken
    const direct = await send(server.url, 'GET', path, auth)
    const taken = counter.taken - before
    const viaApp = await send(server.url, 'GET', `${path}?`, auth)
    expect(counter.taken - before).toBe(taken)
    expect(comparable(direct)).toEqual(comparable(viaApp))
    // `tags` and `search` are routes of their own, registered before getFile; a dot segment is the URL parser's.
    const expectTaken = !['tags', 'search', '.hidden'].includes(key)
    expect(taken).toBe(expectTaken ? 1 : 0)
    if (expectTaken) expect(JSON.parse(direct.body)).toMatchObject({ file: { key, size: 5, tags: { kind: 'lane' } } })
  })

  it('answers a file by id, an encoded route name and an unknown key alike', async () => {
    for (const path of [`/v1/files/${fileId}`, '/v1/files/%74ags', '/v1/files/no-such-file', '/v1/files/a%2Fb.txt', '/v1/files/%E0%A4%A']) {
      const direct = await send(server.url, 'GET', path, auth)
      const viaApp = await send(server.url, 'GET', `${path}?`, auth)
      expect(comparable(direct), path).toEqual(comparable(viaApp))
    }
    const missing = await send(server.url, 'GET', '/v1/files/no-such-file', auth)
    expect(missing.status).toBe(404)
    expect(JSON.parse(missing.body)).toMatchObject({ code: 404, type: 'ResourceNotFound', message: 'File "no-such-file" not found' })
    expect(missing.headers['content-type']).toBe('application/json; charset=UTF-8')
  })

  it('leaves to the app, unchanged, what it does not answer itself', async () => {
    // Taken and handed over once the token is checked (1), or never taken (0): either way the app's answer.
    const cases: Array<[string, string, string[], string | undefined, number, number]> = [
      ['unknown token', 'GET', ['authorization', 'Bearer bs_unknown', 'x-bot-id', 'b'], undefined, 1, 401],
      ['another bot', 'GET', [...auth.slice(0, 2), 'x-bot-id', 'not-this-bot'], undefined, 1, 403],
      ['no token', 'GET', ['x-bot-id', 'b'], undefined, 0, 401],
      ['no bot id', 'GET', auth.slice(0, 2), undefined, 0, 400],
      ['two tokens', 'GET', [...auth, 'authorization', 'Bearer bs_other'], undefined, 0, 401],
      ['two bot ids', 'GET', [...auth, 'x-bot-id', botId], undefined, 0, 403],
      ['HEAD', 'HEAD', auth, undefined, 0, 200],
      ['a body', 'GET', [...auth, 'content-type', 'application/json', 'content-length', '2'], '{}', 0, 200],
    ]
    for (const [name, method, headers, body, taken, status] of cases) {
      const before = counter.taken
      const answer = await send(server.url, method, '/v1/files/a%2Fb.txt', headers, body)
      expect(counter.taken - before, name).toBe(taken)
      expect(answer.status, name).toBe(status)
      const again = await send(server.url, method, '/v1/files/a%2Fb.txt?', headers, body)
      expect(comparable(answer), name).toEqual(comparable(again))
    }
  })

  it('writes the request log line of the Hono path and counts the request in the metrics', async () => {
    lines.length = 0
    const answer = await send(server.url, 'GET', '/v1/files/space%20name.txt', auth)
    const requestId = answer.headers['x-request-id']
    const line = lines.find((entry) => entry.msg === 'request' && entry.requestId === requestId)
    expect(line).toMatchObject({ level: 'info', method: 'GET', path: '/v1/files/space name.txt', status: 200, botId })
    const viaApp = await send(server.url, 'GET', '/v1/files/space%20name.txt?', auth)
    const appLine = lines.find((entry) => entry.msg === 'request' && entry.requestId === viaApp.headers['x-request-id'])
    expect(Object.keys(line!).sort()).toEqual(Object.keys(appLine!).sort())
    expect(appLine).toMatchObject({ path: line!.path, status: 200, botId })
    const metrics = await server.app.services.metrics!.render()
    const count = Number(/botshelf_requests_total\{operation="getFile",status="200"\} (\d+)/.exec(metrics)?.[1])
    expect(count).toBeGreaterThanOrEqual(2)
    const bytes = Number(/botshelf_response_bytes_total\{operation="getFile"\} (\d+)/.exec(metrics)?.[1])
    expect(bytes).toBeGreaterThanOrEqual(Number(answer.headers['content-length']) * 2)
  })
})

describe('direct lane: rate limits, CORS and the switch', () => {
  it('spends one token per request it answers, errors included, and leaves the 429 to the app', async () => {
    const server = await createServer({ memory: true, port: 0, logger, rateLimit: { token: { perSecond: 0.001, burst: 2 } } })
    try {
      const counter = countTaken(server)
      const { bot, token } = await server.app.admin.bootstrap()
      const headers = ['authorization', `Bearer ${token!.token}`, 'x-bot-id', bot.id]
      const first = await send(server.url, 'GET', '/v1/files/missing.txt', headers)
      const second = await send(server.url, 'GET', '/v1/files/missing.txt', headers)
      const third = await send(server.url, 'GET', '/v1/files/missing.txt', headers)
      // Two requests pass the bucket of 2: the 404s spent one token each, not two.
      expect([first.status, second.status, third.status]).toEqual([404, 404, 429])
      expect(third.headers['retry-after']).toBeDefined()
      expect(JSON.parse(third.body)).toMatchObject({ type: 'RateLimited' })
      expect(counter.taken).toBe(3)
    } finally {
      await server.close()
    }
  })

  it('takes nothing when CORS is on or when it is switched off', async () => {
    for (const options of [{ corsOrigins: ['*'] }, { directLane: false }]) {
      const server = await createServer({ memory: true, port: 0, logger, ...options })
      try {
        const counter = countTaken(server)
        const { bot, token } = await server.app.admin.bootstrap()
        const answer = await send(server.url, 'GET', '/v1/files/x.txt', ['authorization', `Bearer ${token!.token}`, 'x-bot-id', bot.id, 'origin', 'http://elsewhere'])
        expect(answer.status).toBe(404)
        expect(counter.taken).toBe(0)
        if ('corsOrigins' in options) expect(answer.headers['access-control-allow-origin']).toBe('*')
      } finally {
        await server.close()
      }
    }
  })
})

describe('direct lane: other direct operations', () => {
  const getThing = defineOperation({
    name: 'getThing',
    method: 'GET',
    path: '/v1/things/{id}',
    summary: 'A thing',
    params: z.object({ id: z.string().max(5) }),
    response: z.object({ thing: z.object({ id: z.string() }) }),
  })
  const special = defineOperation({ name: 'getSpecialThing', method: 'GET', path: '/v1/things/special', summary: 'The special thing', response: z.object({ special: z.boolean() }) })
  const router = new Hono<AppEnv>()
  registerOperation(router, special, () => ({ special: true }))
  registerDirectOperation(router, getThing, ({ input }) => {
    if (input.params.id === 'boom') throw new Error('the thing broke')
    // A wrong answer: with checkResponses it is a logged 500.
    if (input.params.id === 'wrong') return { thing: { id: 42 } } as unknown as { thing: { id: string } }
    return { thing: { id: input.params.id } }
  })
  const things: ServiceFeature = { name: 'things', routes: router }
  let server: RunningServer
  let counter: { taken: number }
  let headers: string[]

  beforeAll(async () => {
    server = await createServer({ memory: true, port: 0, logger, rateLimit: false, checkResponses: true, features: [...defaultFeatures, things] })
    counter = countTaken(server)
    const { bot, token } = await server.app.admin.bootstrap()
    headers = ['authorization', `Bearer ${token!.token}`, 'x-bot-id', bot.id]
  })
  afterAll(async () => {
    await server.close()
  })

  it('serves a path only where the router picks the operation', async () => {
    const before = counter.taken
    expect(JSON.parse((await send(server.url, 'GET', '/v1/things/abc', headers)).body)).toEqual({ thing: { id: 'abc' } })
    expect(counter.taken - before).toBe(1)
    expect(JSON.parse((await send(server.url, 'GET', '/v1/things/special', headers)).body)).toEqual({ special: true })
    expect(counter.taken - before).toBe(1)
  })

  it('hands an invalid parameter to the app, which answers its 400', async () => {
    const direct = await send(server.url, 'GET', '/v1/things/toolong', headers)
    expect(direct.status).toBe(400)
    expect(comparable(direct)).toEqual(comparable(await send(server.url, 'GET', '/v1/things/toolong?', headers)))
  })

  it('answers a thrown error and a wrong answer as a logged 500 without details', async () => {
    for (const id of ['boom', 'wrong']) {
      lines.length = 0
      const answer = await send(server.url, 'GET', `/v1/things/${id}`, headers)
      expect(answer.status).toBe(500)
      expect(JSON.parse(answer.body)).toMatchObject({ code: 500, type: 'Internal', message: 'An internal error occurred' })
      const requestId = answer.headers['x-request-id']
      expect(lines.find((line) => line.msg === 'unhandled error' && line.requestId === requestId)).toBeDefined()
      expect(lines.find((line) => line.msg === 'request' && line.requestId === requestId)).toMatchObject({ level: 'error', status: 500 })
      expect(comparable(answer)).toEqual(comparable(await send(server.url, 'GET', `/v1/things/${id}?`, headers)))
    }
  })
})
