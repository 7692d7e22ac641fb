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

  it('given the expected total, hashes at once what comes before its last trailBytes and holds back only the tail', () => {
    const hash = new TrailingHash(10, 30)
    const early = Buffer.from('a'.repeat(20))
    const tail = Buffer.from('b'.repeat(10))
    hash.update(early)
    hash.update(tail)
    // The first 20 bytes end before the last 10 of 30: hashed already, so changing them now changes nothing;
    // the tail is not hashed yet, so changing it shows.
    early[0] = 'z'.charCodeAt(0)
    tail[0] = 'z'.charCodeAt(0)
    expect(hash.digestHex()).toBe(sha256Of([Buffer.from('a'.repeat(20) + 'z' + 'b'.repeat(9))]))
  })

  it('gives the right digest when the bytes differ from the expected total', () => {
    const chunks = Array.from({ length: 30 }, (_, i) => randomBytes(100 + i))
    for (const expected of [0, 500, 2_000, 100_000]) {
      const hash = new TrailingHash(1_000, expected)
      for (const chunk of chunks) hash.update(chunk)
      expect(hash.digestHex()).toBe(sha256Of(chunks))
    }
  })

  it('hashes an empty stream', () => {
    expect(new TrailingHash().digestHex()).toBe(sha256Of([]))
  })
})
