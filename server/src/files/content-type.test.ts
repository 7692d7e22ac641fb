import { describe, expect, it } from 'vitest'
import { contentTypeFromKey, isInlineSafe } from './content-type.js'

describe('contentTypeFromKey', () => {
  it.each([
    ['report.pdf', 'application/pdf'],
    ['dir.with.dots/Photo.JPEG', 'image/jpeg'],
    ['notes.md', 'text/markdown'],
    ['README', 'application/octet-stream'],
    ['archive.unknownext', 'application/octet-stream'],
    ['folder.d/noext', 'application/octet-stream'],
  ])('%s → %s', (key, type) => {
    expect(contentTypeFromKey(key)).toBe(type)
  })
})

describe('isInlineSafe', () => {
  it('allows passive types and never HTML, SVG or XML', () => {
    expect(isInlineSafe('image/png')).toBe(true)
    expect(isInlineSafe('TEXT/PLAIN; charset=utf-8')).toBe(true)
    expect(isInlineSafe('text/html')).toBe(false)
    expect(isInlineSafe('image/svg+xml')).toBe(false)
    expect(isInlineSafe('application/xhtml+xml')).toBe(false)
    expect(isInlineSafe('application/octet-stream')).toBe(false)
  })
})
