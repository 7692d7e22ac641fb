import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { ServiceError } from './service-error.js'
import { decodeCursor, encodeCursor, queryFingerprint } from './cursor.js'
import { openToken, sealToken } from './sealed-token.js'

const key = randomBytes(32)
const isString = (p: unknown): p is string => typeof p === 'string'

describe('sealed tokens and cursors', () => {
  it('round-trips and refuses altered tokens, other keys and other purposes', () => {
    const token = sealToken(key, 'cursor', { a: 1 })
    expect(openToken(key, 'cursor', token)).toEqual({ a: 1 })
    expect(openToken(key, 'upload', token)).toBeUndefined()
    expect(openToken(randomBytes(32), 'cursor', token)).toBeUndefined()
    const [body, sig] = token.split('.') as [string, string]
    const forged = Buffer.from(JSON.stringify({ a: 2 })).toString('base64url')
    expect(openToken(key, 'cursor', `${forged}.${sig}`)).toBeUndefined()
    expect(openToken(key, 'cursor', `${body}.${sig.slice(0, -2)}AA`)).toBeUndefined()
    expect(openToken(key, 'cursor', 'garbage')).toBeUndefined()
    const last = sig.at(-1)!
    const respelled = `${body}.${sig.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`
    expect(openToken(key, 'cursor', respelled)).toBeUndefined()
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
  })

  it('binds a cursor to its query, ignoring pageSize and key order', () => {
    const a = queryFingerprint('listFiles', { tags: { x: '1', y: '2' }, pageSize: 5 })
    const b = queryFingerprint('listFiles', { pageSize: 50, tags: { y: '2', x: '1' }, nextToken: 'zzz' })
    expect(a).toBe(b)
    const token = encodeCursor(key, a, 'k2')
    expect(decodeCursor(key, b, token, isString)).toBe('k2')
    const other = queryFingerprint('listFiles', { tags: { x: '9' } })
    expect(() => decodeCursor(key, other, token, isString)).toThrow(/other filters/)
  })

  it('answers a tampered cursor with InvalidQuery naming nextToken', () => {
    const fp = queryFingerprint('listFileTags', {})
    try {
      decodeCursor(key, fp, `${encodeCursor(key, fp, 'k')}x`, isString)
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(ServiceError)
      expect((error as ServiceError).type).toBe('InvalidQuery')
      expect((error as ServiceError).message).toContain('nextToken')
    }
  })
})
