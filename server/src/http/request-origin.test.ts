import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { requestOrigin } from './request-origin.js'

function incoming(host: string | undefined, encrypted = false): IncomingMessage {
  return { headers: host === undefined ? {} : { host }, socket: { encrypted } } as unknown as IncomingMessage
}

describe('requestOrigin', () => {
  it('reads the origin the URL parser makes of the Host header', () => {
    expect(requestOrigin(incoming('127.0.0.1:3000'))).toBe('http://127.0.0.1:3000')
    expect(requestOrigin(incoming('Files.Example.COM'))).toBe('http://files.example.com')
    expect(requestOrigin(incoming('example.com:80'))).toBe('http://example.com')
    expect(requestOrigin(incoming('[::1]:8080'))).toBe('http://[::1]:8080')
    expect(requestOrigin(incoming('example.com', true))).toBe('https://example.com')
  })

  it('refuses what @hono/node-server refuses: no Host, or a Host the parser rewrites', () => {
    expect(requestOrigin(incoming(undefined))).toBeUndefined()
    expect(requestOrigin(incoming(''))).toBeUndefined()
    expect(requestOrigin(incoming('0x7f.1'))).toBeUndefined()
    expect(requestOrigin(incoming('a b'))).toBeUndefined()
    expect(requestOrigin(incoming('example.com/path'))).toBeUndefined()
  })

  it('answers the same for a Host seen before', () => {
    expect(requestOrigin(incoming('Cached.Example'))).toBe('http://cached.example')
    expect(requestOrigin(incoming('Cached.Example'))).toBe('http://cached.example')
    expect(requestOrigin(incoming('0x7f.1'))).toBeUndefined()
  })
})
