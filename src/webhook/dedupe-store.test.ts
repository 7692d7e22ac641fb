import { describe, expect, it } from 'vitest'
import { createFakeClock } from '../testing/fake-clock.js'
import { createMemoryDedupeStore } from './dedupe-store.js'

describe('createMemoryDedupeStore', () => {
  it('claims an id once within its TTL, again after it expires', () => {
    const clock = createFakeClock()
    const store = createMemoryDedupeStore({ now: clock.now })
    expect(store.claim('a', 1000)).toBe('new')
    expect(store.claim('a', 1000)).toBe('processing')
    clock.advance(999)
    expect(store.claim('a', 1000)).toBe('processing')
    clock.advance(1)
    expect(store.claim('a', 1000)).toBe('new')
  })

  it('answers processed only for an id marked complete, for the TTL given to complete', () => {
    const clock = createFakeClock()
    const store = createMemoryDedupeStore({ now: clock.now })
    store.claim('a', 1000)
    clock.advance(900)
    store.complete('a', 1000)
    clock.advance(900)
    expect(store.claim('a', 1000)).toBe('processed')
    clock.advance(100)
    expect(store.claim('a', 1000)).toBe('new')
  })

  it('forgets a released id and prunes expired ones', () => {
    const clock = createFakeClock()
    const store = createMemoryDedupeStore({ now: clock.now })
    store.claim('a', 1000)
    store.claim('b', 1000)
    store.release('a')
    expect(store.claim('a', 1000)).toBe('new')
    clock.advance(5000)
    store.claim('c', 1000)
    expect(store.size).toBe(1)
  })

  it('keeps at most maxEntries ids, dropping the oldest', () => {
    const store = createMemoryDedupeStore({ maxEntries: 2 })
    store.claim('a', 60_000)
    store.claim('b', 60_000)
    store.claim('c', 60_000)
    expect(store.size).toBe(2)
    expect(store.claim('a', 60_000)).toBe('new')
    expect(store.claim('c', 60_000)).toBe('processing')
    expect(() => createMemoryDedupeStore({ maxEntries: 0 })).toThrow('maxEntries')
  })
})
