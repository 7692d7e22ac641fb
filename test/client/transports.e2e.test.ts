import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../helpers/eventually.js'
import {
  AbortError,
  Client,
  InternalError,
  InvalidResponseError,
  NetworkError,
  ResourceNotFoundError,
  TimeoutError,
  type ClientOptions,
} from '../../src/client/index.js'
import { startClientService, type ClientTestService } from './service.js'
import { failure } from '../helpers/failure.js'

/**
 * The same behaviours through both transports of botshelf's client over a real socket: the default one (under
 * Node, JSON calls through node:http, decision 1203) and `fetch` (what browsers and edge runtimes use, and what a
 * caller gets by passing `fetch`).
 */
const transports: Array<[string, ClientOptions]> = [
  ['default transport (node:http under Node)', {}],
  ['fetch transport', { fetch: (request: Request) => globalThis.fetch(request) }],
]

/** A raw HTTP server whose answer to each request the test decides. */
async function rawServer(handler: (request: IncomingMessage, response: ServerResponse, index: number) => void) {
  const seen: IncomingMessage[] = []
  const sockets = new Set<Socket>()
  const server: Server = createServer((request, response) => {
    seen.push(request)
    handler(request, response, seen.length - 1)
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    seen,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

const wireError = (type: string, code: number, message: string) => JSON.stringify({ id: 'err_20261124000000x00000000', code, type, message })

describe.each(transports)('client over a socket, %s', (_name, transportOptions) => {
  let service: ClientTestService
  let client: Client

  beforeAll(async () => {
    service = await startClientService({ listen: true, rateLimit: false })
    client = service.client('bot', transportOptions)
  })
  afterAll(async () => {
    await service.close()
  })

  it('sends calls with and without bodies, non-ASCII text included, and keeps the connection usable after a DELETE with a body', async () => {
    await client.uploadFile({ key: 'transport/a.txt', content: 'héllo' })
    expect((await client.getFile({ id: 'transport/a.txt' })).file).toMatchObject({ key: 'transport/a.txt', size: 6 })
    await client.createTable({ name: 'transportTable', schema: { label: '' } })
    const label = 'é€😀 '.repeat(50)
    await client.createTableRows({ table: 'transportTable', rows: [{ label }] })
    const found = await client.findTableRows({ table: 'transportTable', filter: { label } })
    expect(found.rows.map((row) => row['label'])).toEqual([label])
    await client.deleteFile({ id: 'transport/a.txt' })
    const gone = await failure(() => client.getFile({ id: 'transport/a.txt' }))
    expect(gone).toBeInstanceOf(ResourceNotFoundError)
    expect((await client.listFiles({})).files).toEqual([])
  })

  it('runs calls in parallel on several connections', async () => {
    await client.uploadFile({ key: 'transport/parallel.txt', content: 'x' })
    const answers = await Promise.all(Array.from({ length: 16 }, () => client.getFile({ id: 'transport/parallel.txt' })))
    expect(new Set(answers.map((answer) => answer.file.key))).toEqual(new Set(['transport/parallel.txt']))
  })

  it('throws a TypeError before sending when a per-call header value holds a line break', async () => {
    await expect(client.listFiles({}, { headers: { 'x-request-id': 'a\nb' } })).rejects.toBeInstanceOf(TypeError)
  })
})

describe.each(transports)('client failures over a socket, %s', (_name, transportOptions) => {
  const clientFor = (url: string, options: ClientOptions = {}) => new Client({ apiUrl: url, token: 't', botId: 'b', ...transportOptions, ...options })

  it('NetworkError when nothing listens', async () => {
    const server = await rawServer(() => undefined)
    const url = server.url
    await server.close()
    const error = await failure(() => clientFor(url).listFiles({}))
    expect(error).toBeInstanceOf(NetworkError)
  })

  it('TimeoutError when no answer comes in time, AbortError when the caller aborts mid-call', async () => {
    const server = await rawServer(() => undefined) // never answers
    try {
      expect(await failure(() => clientFor(server.url, { timeout: 50 }).listFiles({}))).toBeInstanceOf(TimeoutError)
      const controller = new AbortController()
      const before = server.seen.length
      const call = clientFor(server.url).listFiles({}, { signal: controller.signal })
      // Mid-call: the request has reached the server, which never answers.
      await eventually(async () => (server.seen.length > before ? true : undefined), 'the request at the server')
      controller.abort()
      expect(await failure(() => call)).toBeInstanceOf(AbortError)
    } finally {
      await server.close()
    }
  })

  it('retries a 503 with Retry-After when retries are on, and throws the API error otherwise', async () => {
    let failuresLeft = 1
    const server = await rawServer((_request, response) => {
      if (failuresLeft > 0) {
        failuresLeft--
        response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' }).end(wireError('Internal', 503, 'upstream down'))
      } else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ files: [], meta: {} }))
    })
    try {
      expect(await clientFor(server.url, { retry: { retries: 2, minDelayMs: 1 } }).listFiles({})).toMatchObject({ files: [] })
      expect(server.seen).toHaveLength(2)
      failuresLeft = 1
      const error = await failure(() => clientFor(server.url).listFiles({}))
      expect(error).toBeInstanceOf(InternalError)
      expect(error).toMatchObject({ message: 'upstream down' })
    } finally {
      await server.close()
    }
  })

  it('sends an idempotent call again once when the connection is reset, and not a POST', async () => {
    let resetsLeft = 0
    const server = await rawServer((request, response) => {
      if (resetsLeft > 0) {
        resetsLeft--
        request.socket.destroy()
        return
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ files: [], meta: {}, rows: [], hasMore: false, limit: 20, offset: 0, count: 0 }))
    })
    try {
      resetsLeft = 1
      expect(await clientFor(server.url).listFiles({})).toMatchObject({ files: [] })
      resetsLeft = 1
      expect(await failure(() => clientFor(server.url).findTableRows({ table: 't' }))).toBeInstanceOf(NetworkError)
    } finally {
      await server.close()
    }
  })

  it('InvalidResponseError for a 200 that is not JSON, with the status', async () => {
    const server = await rawServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>proxy</html>'))
    try {
      const error = await failure(() => clientFor(server.url).listFiles({}))
      expect(error).toBeInstanceOf(InvalidResponseError)
      expect(error).toMatchObject({ status: 200 })
    } finally {
      await server.close()
    }
  })

  it('sends the same request line, headers and body', async () => {
    const bodies: string[] = []
    const server = await rawServer((request, response) => {
      let body = ''
      request.setEncoding('utf8')
      request.on('data', (chunk: string) => (body += chunk))
      request.on('end', () => {
        bodies.push(body)
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      })
    })
    try {
      await clientFor(server.url, { headers: { 'X-Custom': 'v' } }).findTableRows({ table: 'tbl', limit: 5 }, { headers: { 'X-Request-Id': 'r1' } })
      const request = server.seen[0]!
      expect(request.method).toBe('POST')
      expect(request.url).toBe('/v1/tables/tbl/rows/find')
      expect(request.headers).toMatchObject({
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: 'bearer t',
        'x-bot-id': 'b',
        'x-custom': 'v',
        'x-request-id': 'r1',
        'content-length': String(Buffer.byteLength(bodies[0]!)),
      })
      expect(JSON.parse(bodies[0]!)).toEqual({ limit: 5 })
    } finally {
      await server.close()
    }
  })
})

describe('which transport the client uses', () => {
  it('under Node without a fetch option, node:http (no fetch headers); with one, that fetch', async () => {
    const server = await rawServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"files":[],"meta":{}}'))
    try {
      await new Client({ apiUrl: server.url, token: 't', botId: 'b' }).listFiles({})
      await new Client({ apiUrl: server.url, token: 't', botId: 'b', fetch: (request) => globalThis.fetch(request) }).listFiles({})
      expect(server.seen[0]!.headers['sec-fetch-mode']).toBeUndefined()
      expect(server.seen[1]!.headers['sec-fetch-mode']).toBe('cors')
    } finally {
      await server.close()
    }
  })
})
