import { describe, expect, it } from 'vitest'
import { ExtractionError } from '../extraction-error.js'
import { charsetOf, decodeText } from './decode-text.js'

function utf16(text: string, endian: 'le' | 'be', bom = true): Uint8Array {
  const out = new Uint8Array((bom ? 2 : 0) + text.length * 2)
  let at = 0
  if (bom) {
    out.set(endian === 'le' ? [0xff, 0xfe] : [0xfe, 0xff])
    at = 2
  }
  for (let i = 0; i < text.length; i++, at += 2) {
    const c = text.charCodeAt(i)
    out[endian === 'le' ? at : at + 1] = c & 0xff
    out[endian === 'le' ? at + 1 : at] = c >> 8
  }
  return out
}

describe('decodeText', () => {
  it('drops a UTF-8 byte-order mark', () => {
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('café')]), 'k')).toBe('café')
  })

  it('reads UTF-16 LE and BE by their byte-order marks', () => {
    expect(decodeText(utf16('Grüße, 世界', 'le'), 'k')).toBe('Grüße, 世界')
    expect(decodeText(utf16('Grüße, 世界', 'be'), 'k')).toBe('Grüße, 世界')
  })

  it('falls back to Latin-1 when the bytes are not valid UTF-8', () => {
    // "café crème" in Latin-1: é = 0xe9, è = 0xe8
    const bytes = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x63, 0x72, 0xe8, 0x6d, 0x65])
    expect(decodeText(bytes, 'k')).toBe('café crème')
  })

  it('honours a declared charset when there is no byte-order mark', () => {
    expect(decodeText(utf16('hello', 'le', false), 'k', 'utf-16le')).toBe('hello')
  })

  it('refuses binary bytes as CORRUPT_DOCUMENT naming the key', () => {
    const bytes = new Uint8Array([0x25, 0x50, 0x00, 0x01, 0x02, 0x03, 0x41])
    expect(() => decodeText(bytes, 'data.txt')).toThrow(ExtractionError)
    try {
      decodeText(bytes, 'data.txt')
    } catch (error) {
      expect((error as ExtractionError).code).toBe('CORRUPT_DOCUMENT')
      expect((error as ExtractionError).message).toContain('data.txt')
    }
  })

  it('reads the charset parameter of a content type', () => {
    expect(charsetOf('text/plain; charset="utf-16le"')).toBe('utf-16le')
    expect(charsetOf('text/html;charset=ISO-8859-1')).toBe('ISO-8859-1')
    expect(charsetOf('text/html')).toBeUndefined()
  })
})
