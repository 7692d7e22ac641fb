import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../helpers/service.js'

interface Exchange {
  status: number
  headers: Record<string, string>
  body: string
  /** How much of the body the client wrote before the connection closed. */
  written: number
  /** The client's write error (EPIPE, ECONNRESET) if the server cut it off. */
  writeError: string | undefined
}

const MB = 1024 * 1024

/**
 * Writes a request head and a body of `bodyBytes` on a fresh connection, as a client does that writes its whole body
 * before it looks at the answer (it keeps reading meanwhile, and does not stop writing when the server half-closes).
 */
function exchange(url: URL, head: string, bodyBytes: number): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), allowHalfOpen: true })
    const received: Buffer[] = []
    let written = 0
    let writeError: string | undefined
    socket.on('connect', () => {
      socket.write(head)
      const chunk = Buffer.alloc(64 * 1024, 0x20)
      const pump = (): void => {
        while (written < bodyBytes && !socket.destroyed) {
          const size = Math.min(chunk.byteLength, bodyBytes - written)
          written += size
          if (!socket.write(chunk.subarray(0, size))) {
            socket.once('drain', pump)
            return
          }
        }
        socket.end()
      }
      pump()
    })
    socket.on('data', (chunk: Buffer) => received.push(chunk))
    socket.on('error', (error: Error & { code?: string }) => {
      writeError = error.code ?? error.message
    })
    socket.on('close', () => {
      const text = Buffer.concat(received).toString('utf8')
      const [headText = '', ...rest] = text.split('\r\n\r\n')
      const [statusLine = '', ...lines] = headText.split('\r\n')
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n'), written, writeError })
    })
  })
}

// A request answered on its head (a URL over 16 KB, a `..` path, no token, a declared size over the limit) while its
// client is still writing a body of several MB. The server must let the client finish writing and read the answer:
// closing at once resets the connection, and the client sees EPIPE or ECONNRESET instead of the wire error.
describe('an answer given before a multi-MB body arrived reaches its client', () => {
  let service: TestService
  let url: URL
  let auth: string
  beforeAll(async () => {
    service = await startTestService({ listen: true, rateLimit: false })
    url = new URL(service.url)
    auth = `Host: 127.0.0.1\r\nAuthorization: Bearer ${service.tokens.bot}\r\nx-bot-id: ${service.botId}\r\nContent-Type: application/json\r\n`
  })
  afterAll(async () => service?.close())

  const wireError = (answer: Exchange, status: number, type: string): void => {
    expect(answer.writeError).toBeUndefined()
    expect(answer.status).toBe(status)
    expect(answer.headers['x-request-id']).toMatch(/^req_[0-9a-f]{16}$/)
    expect(answer.headers['connection']).toBe('close')
    expect(JSON.parse(answer.body)).toMatchObject({ code: status, type, id: expect.any(String), message: expect.any(String) })
  }

  it('an over-long URL (431, refused by the HTTP parser) with an 8 MB body', async () => {
    const answer = await exchange(url, `POST /v1/tables/t/rows?${'a'.repeat(20_000)} HTTP/1.1\r\n${auth}Content-Length: ${8 * MB}\r\n\r\n`, 8 * MB)
    wireError(answer, 431, 'LimitExceeded')
    expect(answer.written).toBe(8 * MB)
  })

  it('an over-long URL with a `..` segment and an 8 MB body', async () => {
    const answer = await exchange(url, `PUT /v1/files/../${'b'.repeat(17_000)} HTTP/1.1\r\n${auth}Content-Length: ${8 * MB}\r\n\r\n`, 8 * MB)
    wireError(answer, 431, 'LimitExceeded')
    expect(answer.written).toBe(8 * MB)
  })

  it('a `..` path (404, answered by the app before reading the body) with an 8 MB body', async () => {
    for (const path of ['/v1/files/..', '/v1/files/%2e%2e', '/v1/tables/../x/rows']) {
      const answer = await exchange(url, `PUT ${path} HTTP/1.1\r\n${auth}Content-Length: ${8 * MB}\r\n\r\n`, 8 * MB)
      wireError(answer, 404, 'ResourceNotFound')
      expect(answer.written).toBe(8 * MB)
    }
  })

  it('no token (401) with an 8 MB body', async () => {
    const answer = await exchange(url, `PUT /v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${8 * MB}\r\n\r\n`, 8 * MB)
    wireError(answer, 401, 'Unauthorized')
  })

  it('a declared body over the route limit (early 413) is read out within the lingering bound', async () => {
    const answer = await exchange(url, `PUT /v1/files HTTP/1.1\r\n${auth}Content-Length: ${12 * MB}\r\n\r\n`, 12 * MB)
    wireError(answer, 413, 'PayloadTooLarge')
    expect(answer.written).toBe(12 * MB)
  })

  it('logs each answer once, with its status and request id', async () => {
    const logged = service.logs.filter((line) => line['msg'] === 'request' || line['msg'] === 'request refused').map((line) => line['status'])
    expect(logged).toEqual(expect.arrayContaining([431, 431, 404, 404, 404, 401, 413]))
    expect(service.logs.filter((line) => line['level'] === 'error')).toEqual([])
  })
})
