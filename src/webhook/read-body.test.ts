import { describe, expect, it } from 'vitest'
import { readBodyWithLimit } from './read-body.js'
import { fromBase64, timingSafeEqual, toBase64 } from './bytes.js'

const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  new Request('http://localhost/', { method: 'POST', body, headers })

describe('readBodyWithLimit', () => {
  it('accepts a body of exactly the limit and refuses one byte more', async () => {
    const exact = await readBodyWithLimit(post('x'.repeat(10)), 10)
    expect(exact.ok && exact.bytes.byteLength).toBe(10)
    expect((await readBodyWithLimit(post('x'.repeat(11)), 10)).ok).toBe(false)
  })

  it('reads an empty body', async () => {
    const result = await readBodyWithLimit(post(null), 10)
    expect(result.ok && result.bytes.byteLength).toBe(0)
  })

  it('counts bytes, not characters', async () => {
    expect((await readBodyWithLimit(post('é'.repeat(6)), 10)).ok).toBe(false)
  })
})

describe('bytes helpers', () => {
  it('round-trips base64 and refuses what is not base64', () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 255])
    expect(fromBase64(toBase64(bytes))).toEqual(bytes)
    expect(fromBase64('***')).toBeUndefined()
    expect(fromBase64('abcde')).toBeUndefined()
  })

  it('compares bytes', () => {
    expect(timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true)
    expect(timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false)
    expect(timingSafeEqual(new Uint8Array([1]), new Uint8Array([1, 2]))).toBe(false)
  })
})
