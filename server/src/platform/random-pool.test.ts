import { describe, expect, it } from 'vitest'
import { pooledRandomBytes } from './random-pool.js'

describe('pooledRandomBytes', () => {
  it('hands out each byte once, across pool refills, and keeps earlier views intact', () => {
    const first = pooledRandomBytes(16)
    const copy = Buffer.from(first)
    const seen = new Set<string>([copy.toString('hex')])
    // 1,000 × 16 bytes: several pools of 4 KB.
    for (let i = 0; i < 1_000; i++) seen.add(pooledRandomBytes(16).toString('hex'))
    expect(seen.size).toBe(1_001)
    expect(first.equals(copy)).toBe(true)
  })

  it('refuses a count it cannot serve, naming it', () => {
    expect(() => pooledRandomBytes(4097)).toThrow(/count: expected a whole number from 0 to 4096, received 4097/)
    expect(() => pooledRandomBytes(-1)).toThrow(/received -1/)
  })
})
