import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { ExtractionError } from '../extraction-error.js'
import { readZip } from './read-zip.js'

const bounds = { maxEntries: 100, maxInflatedBytes: 1024 * 1024 }

function code(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(ExtractionError)
    return (error as ExtractionError).code
  }
  return 'no error'
}

describe('readZip', () => {
  it('reads stored and deflated entries, skipping folders and unwanted entries', () => {
    const zip = zipSync({ 'a.xml': strToU8('<a>'.repeat(1000)), 'dir/': new Uint8Array(), 'b.bin': [strToU8('stored'), { level: 0 }], 'skip.png': strToU8('png') })
    const entries = readZip(zip, 'k', bounds, (name) => name !== 'skip.png')
    expect([...entries.keys()].sort()).toEqual(['a.xml', 'b.bin'])
    expect(new TextDecoder().decode(entries.get('a.xml'))).toBe('<a>'.repeat(1000))
    expect(new TextDecoder().decode(entries.get('b.bin'))).toBe('stored')
  })

  it('counts inflated bytes across entries while inflating, never trusting declared sizes', () => {
    const zip = zipSync({ 'one.xml': new Uint8Array(600 * 1024), 'two.xml': new Uint8Array(600 * 1024) })
    expect(code(() => readZip(zip, 'k', bounds))).toBe('TOO_LARGE')
    // Lying about the sizes in the directory changes nothing: the count is of bytes actually produced.
    const view = new DataView(zip.buffer, zip.byteOffset)
    for (let at = zip.length - 22; at >= 0; at--) if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, 10, true)
    expect(code(() => readZip(zip, 'k', bounds))).toBe('TOO_LARGE')
    expect(readZip(zip, 'k', { ...bounds, maxInflatedBytes: 2 * 1024 * 1024 }).get('two.xml')).toHaveLength(600 * 1024)
  })

  it('refuses too many entries, truncated data, damaged deflate streams and non-zip bytes', () => {
    const many = zipSync(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}`, strToU8('x')])))
    expect(code(() => readZip(many, 'k', { ...bounds, maxEntries: 10 }))).toBe('TOO_LARGE')
    const zip = zipSync({ 'a.xml': strToU8('hello world '.repeat(500)) })
    expect(code(() => readZip(zip.slice(0, zip.length - 10), 'k', bounds))).toBe('CORRUPT_DOCUMENT')
    const damaged = zip.slice()
    damaged.fill(0xff, 40, 60)
    expect(code(() => readZip(damaged, 'k', bounds))).toBe('CORRUPT_DOCUMENT')
    expect(code(() => readZip(strToU8('just text'), 'k', bounds))).toBe('CORRUPT_DOCUMENT')
  })
})
