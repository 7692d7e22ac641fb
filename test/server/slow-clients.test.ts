import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp } from '../../server/src/http/app.js'
import { silentLogger } from '../../server/src/http/logger.js'
import { createServer, type RunningServer, type ServerOptions } from '../../server/src/http/server.js'

const servers: RunningServer[] = []
const sockets: Socket[] = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  for (const server of servers.splice(0)) await server.close()
})

interface Started {
  server: RunningServer
  logs: Array<Record<string, unknown>>
  token: string
  botId: string
}

async function start(options: ServerOptions = {}): Promise<Started> {
  const logs: Array<Record<string, unknown>> = []
  const server = await createServer({
    memory: true,
    port: 0,
    logger: { log: (level, msg, fields) => logs.push({ level, msg, ...fields }) },
    headersTimeoutMs: 300,
    bodyTimeoutMs: 300,
    ...options,
  })
  servers.push(server)
  const bot = await server.app.admin.createBot()
  const { token } = await server.app.admin.createToken({ botId: bot.id, role: 'bot' })
  return { server, logs, token, botId: bot.id }
}

interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: any
  /** From the first write to the connection's close. */
  elapsedMs: number
}

/** Opens a raw connection, lets `talk` write on it, and collects everything until the server closes it. */
function raw(server: RunningServer, talk: (socket: Socket) => void | Promise<void>, options: { localAddress?: string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port: server.port, host: '127.0.0.1', ...options })
    sockets.push(socket)
    const chunks: Buffer[] = []
    let started = 0
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', () => undefined)
    socket.once('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const [head = '', ...rest] = text.split('\r\n\r\n')
      const [statusLine = '', ...lines] = head.split('\r\n')
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
      const bodyText = rest.join('\r\n\r\n')
      let body: unknown = bodyText
      try {
        body = JSON.parse(bodyText)
      } catch {
        // not JSON: keep the text
      }
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body, elapsedMs: Date.now() - started })
    })
    socket.once('connect', () => {
      started = Date.now()
      Promise.resolve(talk(socket)).catch(reject)
    })
  })
}

const ERROR_ID = /^err_\d{14}x[0-9A-F]{8}$/
const REQUEST_ID = /^req_[0-9a-f]{16}$/
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

describe('slow clients are cut within their bound', () => {
  it('cuts headers that do not arrive within headersTimeoutMs with a 408 wire error, and logs it', async () => {
    const { server, logs } = await start()
    const answer = await raw(server, (socket) => void socket.write('GET /health HTTP/1.1\r\nHost: local\r\nx-slow: '))
    expect(answer.status).toBe(408)
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(280)
    expect(answer.elapsedMs).toBeLessThan(1_500)
    expect(answer.headers['connection']).toBe('close')
    expect(answer.headers['content-type']).toBe('application/json; charset=UTF-8')
    expect(answer.headers['x-request-id']).toMatch(REQUEST_ID)
    expect(answer.body).toEqual({
      id: expect.stringMatching(ERROR_ID),
      code: 408,
      type: 'OperationTimeout',
      message: 'The request headers did not arrive within 300 ms; send it again',
      metadata: { limitMs: 300, reason: 'ERR_HTTP_REQUEST_TIMEOUT' },
    })
    expect(logs).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: 'request timed out', phase: 'headers', status: 408, requestId: answer.headers['x-request-id'], remoteAddress: '127.0.0.1' }),
    )
  })

  it('cuts a connection that sends nothing at all', async () => {
    const { server } = await start()
    const answer = await raw(server, () => undefined)
    expect(answer.status).toBe(408)
    expect(answer.elapsedMs).toBeLessThan(1_500)
  })

  it('cuts a JSON body that stalls, answering 408 OperationTimeout before any handler work', async () => {
    const { server, logs, token, botId } = await start()
    const answer = await raw(server, (socket) => {
      socket.write(
        `POST /v1/tables/notes/rows/find HTTP/1.1\r\nHost: local\r\nauthorization: Bearer ${token}\r\nx-bot-id: ${botId}\r\n` +
          'content-type: application/json\r\ncontent-length: 100\r\n\r\n{"limit":',
      )
    })
    expect(answer.status).toBe(408)
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(280)
    expect(answer.elapsedMs).toBeLessThan(1_500)
    expect(answer.headers['connection']).toBe('close')
    expect(answer.headers['x-request-id']).toMatch(REQUEST_ID)
    expect(answer.body).toEqual({
      id: expect.stringMatching(ERROR_ID),
      code: 408,
      type: 'OperationTimeout',
      message: 'The request body did not arrive within 300 ms (9 of 100 bytes received); send it again',
      metadata: { limitMs: 300, bytesReceived: 9 },
    })
    const requestId = answer.headers['x-request-id']
    expect(logs).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'request timed out', phase: 'body', requestId, bytesReceived: 9, limitMs: 300 }))
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'request', status: 408, requestId, path: '/v1/tables/notes/rows/find' }))
  })

  it('bounds a body in process too (app.fetch from an embedding HTTP stack)', async () => {
    const app = await createApp({ memory: true, logger: silentLogger, bodyTimeoutMs: 200 })
    try {
      const bot = await app.admin.createBot()
      const { token } = await app.admin.createToken({ botId: bot.id, role: 'bot' })
      const stalled = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"key":'))
        },
      })
      const started = Date.now()
      const res = await app.fetch(
        new Request('http://local/v1/files', {
          method: 'PUT',
          headers: { authorization: `Bearer ${token}`, 'x-bot-id': bot.id, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
          body: stalled,
          duplex: 'half',
        } as RequestInit),
      )
      expect(Date.now() - started).toBeGreaterThanOrEqual(190)
      expect(res.status).toBe(408)
      expect(res.headers.get('connection')).toBe('close')
      expect(await res.json()).toMatchObject({ code: 408, type: 'OperationTimeout', message: 'The request body did not arrive within 200 ms (7 bytes received); send it again' })
      // A body that arrives in time is not touched.
      const ok = await app.fetch(
        new Request('http://local/v1/files', {
          method: 'PUT',
          headers: { authorization: `Bearer ${token}`, 'x-bot-id': bot.id, 'content-type': 'application/json' },
          body: JSON.stringify({ key: 'a.txt', size: 1 }),
        }),
      )
      expect(ok.status).toBe(200)
    } finally {
      await app.close()
    }
  })

  it('bounds the whole body, not the pause between bytes: a body dribbled byte by byte is cut too', async () => {
    const { server, token, botId } = await start()
    let stop = false
    const answer = await raw(server, async (socket) => {
      socket.write(
        `PUT /v1/files HTTP/1.1\r\nHost: local\r\nauthorization: Bearer ${token}\r\nx-bot-id: ${botId}\r\n` +
          'content-type: application/json\r\ncontent-length: 60\r\n\r\n',
      )
      for (let i = 0; i < 60 && !stop && socket.writable; i++) {
        socket.write(' ')
        await sleep(50)
      }
    })
    stop = true
    expect(answer.status).toBe(408)
    expect(answer.elapsedMs).toBeLessThan(1_500)
  })

  it('leaves uploads to the request timeout: a slow but steady upload is not cut by the body bound', async () => {
    const { server, token, botId } = await start()
    const size = 20
    const created = await fetch(`${server.url}/v1/files`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'x-bot-id': botId, 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'slow.txt', size }),
    })
    const { file } = (await created.json()) as { file: { uploadUrl: string } }
    const target = new URL(file.uploadUrl)
    const answer = await raw(server, async (socket) => {
      socket.write(`PUT ${target.pathname}${target.search} HTTP/1.1\r\nHost: local\r\nconnection: close\r\ncontent-length: ${size}\r\n\r\n`)
      for (let i = 0; i < size; i++) {
        socket.write('x')
        await sleep(40)
      }
    })
    expect(answer.elapsedMs).toBeGreaterThan(600)
    expect(answer.status).toBe(200)
  })

  it('closes a stalled upload after idleTimeoutMs of silence and records it failed', async () => {
    const { server, logs, token, botId } = await start({ idleTimeoutMs: 500 })
    const headers = { authorization: `Bearer ${token}`, 'x-bot-id': botId, 'content-type': 'application/json' }
    const created = await fetch(`${server.url}/v1/files`, { method: 'PUT', headers, body: JSON.stringify({ key: 'stalled.txt', size: 100 }) })
    const { file } = (await created.json()) as { file: { id: string; uploadUrl: string } }
    const target = new URL(file.uploadUrl)
    const answer = await raw(server, (socket) => void socket.write(`PUT ${target.pathname}${target.search} HTTP/1.1\r\nHost: local\r\ncontent-length: 100\r\n\r\nhalf`))
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(450)
    expect(answer.elapsedMs).toBeLessThan(2_000)
    expect(answer.status).toBe(408)
    expect(answer.body).toMatchObject({ code: 408, type: 'OperationTimeout', message: 'The connection was silent for 500 ms during the request; send it again' })
    expect(logs).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: 'request timed out', phase: 'idle', method: 'PUT', path: target.pathname, limitMs: 500, answerStarted: false }),
    )
    let status = ''
    for (let i = 0; i < 50 && status !== 'upload_failed'; i++) {
      const res = await fetch(`${server.url}/v1/files/${file.id}`, { headers })
      status = ((await res.json()) as { file: { status: string } }).file.status
      if (status !== 'upload_failed') await sleep(20)
    }
    expect(status).toBe('upload_failed')
  })

  it('closes a download its client stopped reading after idleTimeoutMs', async () => {
    const { server, logs, token, botId } = await start({ idleTimeoutMs: 500 })
    const size = 64 * 1024 * 1024
    const headers = { authorization: `Bearer ${token}`, 'x-bot-id': botId, 'content-type': 'application/json' }
    const created = await fetch(`${server.url}/v1/files`, { method: 'PUT', headers, body: JSON.stringify({ key: 'big.bin', size }) })
    const { file } = (await created.json()) as { file: { id: string; uploadUrl: string } }
    // The content goes in through the app itself, not the socket: the 500 ms idle bound under test applies to every
    // connection, and a 64 MiB upload over loopback on a loaded machine can fall silent that long before the test
    // begins. The bound is then tested on the download alone.
    expect((await server.app.fetch(new Request(file.uploadUrl, { method: 'PUT', body: new Uint8Array(size) }))).status).toBe(200)
    const { file: ready } = (await (await fetch(`${server.url}/v1/files/${file.id}`, { headers })).json()) as { file: { url: string } }
    const target = new URL(ready.url)
    const socket = connect({ port: server.port, host: '127.0.0.1' })
    sockets.push(socket)
    socket.on('error', () => undefined)
    let received = 0
    let reading = false
    // Read the first bytes, then stop reading: the server's writes back up and the connection goes silent.
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length
      if (!reading) socket.pause()
    })
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    const started = Date.now()
    socket.write(`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: local\r\n\r\n`)
    while (!logs.some((line) => line.msg === 'request timed out') && Date.now() - started < 5_000) await sleep(20)
    const cutAfter = Date.now() - started
    expect(cutAfter).toBeGreaterThanOrEqual(450)
    expect(cutAfter).toBeLessThan(5_000)
    expect(logs).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'request timed out', phase: 'idle', method: 'GET', path: target.pathname, answerStarted: true }))
    // Reading again finds the connection closed, the download incomplete.
    reading = true
    socket.resume()
    await closed
    expect(received).toBeGreaterThan(0)
    expect(received).toBeLessThan(size)
  })

  // No time is asserted: were the slow clients holding the server, /health would answer only once their 5 s bounds
  // cut them, and they would no longer be held when it did.
  it('keeps /health answering while slow clients hold connections', async () => {
    const { server, token, botId } = await start({ headersTimeoutMs: 5_000, bodyTimeoutMs: 5_000 })
    const held: Socket[] = []
    for (let i = 0; i < 20; i++) {
      const socket = connect({ port: server.port, host: '127.0.0.1' })
      sockets.push(socket)
      socket.on('error', () => undefined)
      held.push(socket)
      socket.write(
        i % 2 === 0
          ? 'GET /health HTTP/1.1\r\nHost: local\r\n'
          : `POST /v1/tables/notes/rows/find HTTP/1.1\r\nHost: local\r\nauthorization: Bearer ${token}\r\nx-bot-id: ${botId}\r\ncontent-length: 1000\r\n\r\n{`,
      )
    }
    await sleep(100)
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${server.url}/health`)
      expect(res.status).toBe(200)
    }
    expect(held.every((socket) => !socket.destroyed)).toBe(true)
  })
})

describe('timeout options', () => {
  it('refuses a bound that is not a whole number of milliseconds, naming it, before opening anything', async () => {
    await expect(createServer({ memory: true, port: 0, logger: silentLogger, idleTimeoutMs: -1 })).rejects.toThrow(
      'idleTimeoutMs must be a whole number of milliseconds from 0 (0 switches it off), received -1',
    )
    await expect(createServer({ memory: true, port: 0, logger: silentLogger, headersTimeoutMs: 1.5 })).rejects.toThrow('headersTimeoutMs must be')
    await expect(createApp({ memory: true, logger: silentLogger, bodyTimeoutMs: Number.NaN })).rejects.toThrow('bodyTimeoutMs must be')
  })

  it('sets the node:http bounds it documents, and checks them often enough to honour them', async () => {
    const { server } = await start({ headersTimeoutMs: 20_000, idleTimeoutMs: 120_000 })
    expect(server.httpServer.headersTimeout).toBe(20_000)
    expect(server.httpServer.requestTimeout).toBe(3_600_000)
    expect(server.httpServer.timeout).toBe(120_000)
    const defaults = await createServer({ memory: true, port: 0, logger: silentLogger })
    servers.push(defaults)
    expect(defaults.httpServer.timeout).toBe(120_000)
    expect(defaults.httpServer.headersTimeout).toBe(20_000)
  })
})

describe("answers of Node's HTTP parser carry the wire error body", () => {
  it('answers an over-long URL with 431 LimitExceeded, a request id and connection: close, and logs it', async () => {
    const { server, logs } = await start()
    const answer = await raw(server, (socket) => void socket.write(`GET /v1/files/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: local\r\n\r\n`))
    expect(answer.status).toBe(431)
    expect(answer.headers['connection']).toBe('close')
    expect(answer.headers['x-request-id']).toMatch(REQUEST_ID)
    expect(answer.body).toEqual({
      id: expect.stringMatching(ERROR_ID),
      code: 431,
      type: 'LimitExceeded',
      message: 'The request line and headers are larger than the limit of 16384 bytes; send a shorter URL or fewer headers',
      metadata: { limit: 16384, reason: 'HPE_HEADER_OVERFLOW' },
    })
    expect(logs).toContainEqual({
      level: 'warn',
      msg: 'request refused',
      requestId: answer.headers['x-request-id'],
      status: 431,
      reason: answer.body.message,
      code: 'HPE_HEADER_OVERFLOW',
      remoteAddress: '127.0.0.1',
    })
  })

  it('answers a HEAD request refused by the parser with the status and headers only (a HEAD answer has no body)', async () => {
    const { server } = await start()
    const answer = await raw(server, (socket) => void socket.write(`HEAD /v1/files?${'a'.repeat(20_000)} HTTP/1.1\r\nHost: local\r\n\r\n`))
    expect(answer.status).toBe(431)
    expect(answer.headers['x-request-id']).toMatch(REQUEST_ID)
    expect(answer.headers['connection']).toBe('close')
    expect(answer.body).toBe('')
  })

  it('lets a client still sending its body read the 431 (no EPIPE): the rest is read and dropped before closing', async () => {
    const { server } = await start()
    const { request } = await import('node:http')
    const answer = await new Promise<{ status: number; type: string }>((resolve, reject) => {
      const outgoing = request({ host: '127.0.0.1', port: server.port, method: 'PUT', path: `/v1/files?${'q'.repeat(20_000)}`, headers: { 'content-type': 'application/json', 'content-length': String(8 * 1024 * 1024) } }, (incoming) => {
        const chunks: Buffer[] = []
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, type: JSON.parse(Buffer.concat(chunks).toString('utf8')).type }))
      })
      outgoing.on('error', reject)
      outgoing.end(Buffer.alloc(8 * 1024 * 1024, 0x20))
    })
    expect(answer).toEqual({ status: 431, type: 'LimitExceeded' })
  })

  it('answers over-large headers with 431 too', async () => {
    const { server } = await start()
    const answer = await raw(server, (socket) => void socket.write(`GET /health HTTP/1.1\r\nHost: local\r\nx-big: ${'b'.repeat(17_000)}\r\n\r\n`))
    expect(answer.status).toBe(431)
    expect(answer.body).toMatchObject({ code: 431, type: 'LimitExceeded' })
  })

  it('answers a malformed request line with 400 InvalidPayload naming the problem', async () => {
    const { server, logs } = await start()
    const answer = await raw(server, (socket) => void socket.write('HELLO THERE\r\n\r\n'))
    expect(answer.status).toBe(400)
    expect(answer.headers['connection']).toBe('close')
    expect(answer.headers['x-request-id']).toMatch(REQUEST_ID)
    expect(answer.body).toEqual({
      id: expect.stringMatching(ERROR_ID),
      code: 400,
      type: 'InvalidPayload',
      message: 'The request is not valid HTTP/1.1: Invalid method encountered',
      metadata: { reason: 'HPE_INVALID_METHOD' },
    })
    expect(logs).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'request refused', status: 400, code: 'HPE_INVALID_METHOD', requestId: answer.headers['x-request-id'] }))
    const badHeader = await raw(server, (socket) => void socket.write('GET /health HTTP/1.1\r\nHost: local\r\nbad header\r\n\r\n'))
    expect(badHeader.status).toBe(400)
    expect(badHeader.body).toMatchObject({ type: 'InvalidPayload', metadata: { reason: expect.stringMatching(/^HPE_/) } })
  })

  it('answers an HTTP/1.1 request without Host with 400 InvalidPayload, and still serves HTTP/1.0 without one', async () => {
    const { server, logs } = await start()
    const answer = await raw(server, (socket) => void socket.write('GET /health HTTP/1.1\r\n\r\n'))
    expect(answer.status).toBe(400)
    expect(answer.headers['x-request-id']).toMatch(REQUEST_ID)
    expect(answer.body).toMatchObject({ code: 400, type: 'InvalidPayload', message: 'The request cannot be read: HTTP/1.1 requests must carry a Host header' })
    expect(logs).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'request refused', status: 400, requestId: answer.headers['x-request-id'] }))
    const old = await raw(server, (socket) => void socket.write('GET /health HTTP/1.0\r\n\r\n'))
    expect(old.status).toBe(200)
    expect(old.body).toEqual({ status: 'ok' })
  })
})
