import type { FuzzRandom } from './fuzz-random.js'

/** A complete request written byte for byte on a fresh connection: framing Node's parser must refuse. */
export interface RawFuzzRequest {
  label: string
  bytes: Buffer
}

/** Malformed HTTP/1.1 on the wire: each is a complete message the server must answer (not hang up on). */
export function nextRawRequest(random: FuzzRandom, auth: { token: string; botId: string }): RawFuzzRequest {
  const headers = `Host: 127.0.0.1\r\nAuthorization: Bearer ${auth.token}\r\nx-bot-id: ${auth.botId}\r\n`
  const cases: Array<[string, string | Buffer]> = [
    ['bad request line', 'GARBAGE\r\n\r\n'],
    ['lowercase method', `get /v1/files HTTP/1.1\r\n${headers}\r\n`],
    ['bad version', `GET /v1/files HTTP/9.9\r\n${headers}\r\n`],
    ['space in target', `GET /v1/files x HTTP/1.1\r\n${headers}\r\n`],
    ['long url', `GET /v1/files?${'a'.repeat(random.int(17_000, 80_000))} HTTP/1.1\r\n${headers}\r\n`],
    ['many headers', `GET /v1/files HTTP/1.1\r\n${headers}${Array.from({ length: random.int(300, 2000) }, (_, i) => `x-h${i}: ${'v'.repeat(20)}\r\n`).join('')}\r\n`],
    ['header without colon', `GET /v1/files HTTP/1.1\r\n${headers}broken header\r\n\r\n`],
    ['control char in header', `GET /v1/files HTTP/1.1\r\n${headers}x-a: \u0001\r\n\r\n`],
    ['two content-lengths', `PUT /v1/files HTTP/1.1\r\n${headers}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`],
    ['content-length and chunked', `PUT /v1/files HTTP/1.1\r\n${headers}Content-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
    ['bad chunk size', `PUT /v1/files HTTP/1.1\r\n${headers}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`],
    ['negative content-length', `PUT /v1/files HTTP/1.1\r\n${headers}Content-Length: -5\r\n\r\n`],
    ['no host', `GET /v1/files HTTP/1.1\r\nAuthorization: Bearer ${auth.token}\r\n\r\n`],
    ['absolute-form target', `GET http://evil.example/v1/files HTTP/1.1\r\n${headers}\r\n`],
    ['asterisk target', `OPTIONS * HTTP/1.1\r\n${headers}\r\n`],
    ['invalid utf-8 in target', Buffer.concat([Buffer.from('GET /v1/files/'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(` HTTP/1.1\r\n${headers}\r\n`)])],
    ['obsolete line folding', `GET /v1/files HTTP/1.1\r\n${headers}x-a: one\r\n two\r\n\r\n`],
  ]
  const [label, bytes] = random.pick(cases)
  return { label: `raw: ${label}`, bytes: typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes }
}
