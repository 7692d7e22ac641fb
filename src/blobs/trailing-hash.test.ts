import { createHash, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { TrailingHash } from './trailing-hash.js'

function sha256Of(chunks: Uint8Array[]): string {
  const hash = createHash('sha256')
  for (const chunk of chunks) hash.update(chunk)
  return hash.digest('hex')
}

describe('TrailingHash', () => {
  it('gives the sha256 of every chunk, in order, whatever it held back', () => {
    const chunks = Array.from({ length: 40 }, (_, i) => randomBytes(1 + ((i * 7919) % 5000)))
    for (const trail of [0, 1, 4096, 65_536, 1024 * 1024]) {
      const hash = new TrailingHash(trail)
      for (const chunk of chunks) hash.update(chunk)
      expect(hash.digestHex()).toBe(sha256Of(chunks))
    }
  })

  it('hashes nothing before the digest while the chunks fit in the trail', () => {
    const hash = new TrailingHash(10)
    const chunk = Buffer.from('abcde')
    hash.update(chunk)
    hash.update(Buffer.from('fghij'))
    // Changed after it was given but before the digest: the change shows, since it was not hashed yet.
    chunk[0] = 'z'.charCodeAt(0)
    expect(hash.digestHex()).toBe(sha256Of([Buffer.from('zbcdefghij')]))
  })

  it('hashes the oldest chunks once more than the trail waits', () => {
    const hash = new TrailingHash(10)
    const first = Buffer.from('abcdef')
    hash.update(first)
    hash.update(Buffer.from('ghijkl'))
    // 12 bytes queued > 10: the first chunk was hashed, so changing it now changes nothing.
    first[0] = 'z'.charCodeAt(0)
    expect(hash.digestHex()).toBe(sha256Of([Buffer.from('abcdefghijkl')]))
  })

  it('hashes an empty stream', () => {
    expect(new TrailingHash().digestHex()).toBe(sha256Of([]))
  })
})
