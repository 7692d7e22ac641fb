import { describe, expect, it } from 'vitest'
import { MemoryRateLimitStore } from './memory-store.js'

const limit = { perSecond: 1, burst: 2 }

describe('MemoryRateLimitStore', () => {
  it('keeps one bucket per key: one key running dry leaves the others whole', () => {
    const store = new MemoryRateLimitStore()
    expect(store.take('token:a', 1, 0, limit).allowed).toBe(true)
    expect(store.take('token:a', 1, 0, limit).allowed).toBe(true)
    expect(store.take('token:a', 1, 0, limit)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 1_000 })
    expect(store.take('token:b', 1, 0, limit)).toEqual({ allowed: true, remaining: 1, retryAfterMs: 0 })
    expect(store.take('token:a', 1, 1_000, limit).allowed).toBe(true)
  })

  it('drops the buckets that are full again on its sweep, which changes no decision', () => {
    const store = new MemoryRateLimitStore({ sweepIntervalMs: 10_000 })
    for (let i = 0; i < 50; i++) store.take(`ip:10.0.0.${i}`, 1, 0, limit)
    store.take('ip:busy', 1, 9_000, limit)
    store.take('ip:busy', 1, 9_000, limit)
    expect(store.size).toBe(51)
    // At 10 s every idle bucket refilled (1 token a second, 1 missing); `busy` still misses tokens.
    store.take('ip:new', 1, 10_000, limit)
    expect(store.size).toBe(2)
    expect(store.take('ip:busy', 1, 10_000, limit)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 })
    expect(store.take('ip:10.0.0.1', 1, 10_000, limit)).toEqual({ allowed: true, remaining: 1, retryAfterMs: 0 })
  })

  it('holds at most maxKeys buckets, dropping the least recently used', () => {
    const store = new MemoryRateLimitStore({ maxKeys: 3, sweepIntervalMs: 1e12 })
    store.take('a', 2, 0, limit)
    store.take('b', 2, 0, limit)
    store.take('c', 2, 0, limit)
    store.take('a', 0, 1, limit) // a is used again: b is now the oldest
    store.take('d', 1, 2, limit)
    expect(store.size).toBe(3)
    // c was kept (still empty), b was forgotten: it starts again with a full bucket.
    expect(store.take('c', 1, 3, limit).allowed).toBe(false)
    expect(store.take('b', 2, 3, limit).allowed).toBe(true)
  })

  it('stays bounded under a flood of new keys', () => {
    const store = new MemoryRateLimitStore({ maxKeys: 1_000 })
    for (let i = 0; i < 20_000; i++) store.take(`ip:${i}`, 1, i, { perSecond: 0.001, burst: 5 })
    expect(store.size).toBe(1_000)
  })

  it('refuses options that cannot work', () => {
    expect(() => new MemoryRateLimitStore({ maxKeys: 0 })).toThrow(/maxKeys/)
    expect(() => new MemoryRateLimitStore({ sweepIntervalMs: 0 })).toThrow(/sweepIntervalMs/)
  })
})
