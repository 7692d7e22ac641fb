import { describe, expect, it } from 'vitest'
import { timingSafeEqual } from './bytes.js'

// Issue 28: a compare that skipped the last byte was caught only by a helper test in another file.
describe('timingSafeEqual', () => {
  it('tells arrays apart that differ in any one byte, the first and the last included', () => {
    const base = Uint8Array.from({ length: 32 }, (_, i) => i * 7)
    expect(timingSafeEqual(base, base.slice())).toBe(true)
    for (let at = 0; at < base.length; at++) {
      const changed = base.slice()
      changed[at] = changed[at]! ^ 0x01
      expect(timingSafeEqual(base, changed), `byte ${at}`).toBe(false)
    }
  })

  it('tells arrays of different lengths apart, one a prefix of the other included', () => {
    expect(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2]))).toBe(false)
    expect(timingSafeEqual(new Uint8Array([]), new Uint8Array([0]))).toBe(false)
    expect(timingSafeEqual(new Uint8Array([]), new Uint8Array([]))).toBe(true)
  })
})
